import FontRegCore
import FontRegJSON

/// What a reader found in one input file: the text styles it uses and notes for the reader of the report.
public struct TypographyDocument: Sendable {
    /// The file read.
    public var file: String
    /// The format the file was read as.
    public var format: AuditInputFormat
    /// Every text style, in file order.
    public var uses: [TypographyUse]
    /// Things worth knowing that are not errors: deprecated tokens left out, palette weights no style uses.
    public var notes: [String]

    public init(file: String, format: AuditInputFormat, uses: [TypographyUse], notes: [String] = []) {
        self.file = file
        self.format = format
        self.uses = uses
        self.notes = notes
    }
}

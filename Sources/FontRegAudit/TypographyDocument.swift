import FontRegCore
import FontRegJSON

/// What a reader found in one input file: the text styles it uses and notes for the reader of the report.
package struct TypographyDocument: Sendable {
    /// The file read.
    package var file: String
    /// The format the file was read as.
    package var format: AuditInputFormat
    /// Every text style, in file order.
    package var uses: [TypographyUse]
    /// Things worth knowing that are not errors: deprecated tokens left out, palette weights no style uses.
    package var notes: [String]

    package init(file: String, format: AuditInputFormat, uses: [TypographyUse], notes: [String] = []) {
        self.file = file
        self.format = format
        self.uses = uses
        self.notes = notes
    }
}

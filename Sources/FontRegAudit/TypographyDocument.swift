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
    /// Language tags the file names for the coverage check (a token file's top-level `$locales`).
    package var languages: [String] = []
    /// Sample texts the file names for the coverage check (a token file's top-level `$samples`).
    package var samples: [String] = []

    package init(file: String, format: AuditInputFormat, uses: [TypographyUse], notes: [String] = []) {
        self.file = file
        self.format = format
        self.uses = uses
        self.notes = notes
    }
}

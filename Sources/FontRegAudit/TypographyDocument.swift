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
    /// Files read into this document that contribute no token to any text style (of merged token files).
    ///
    /// Empty for a single-file document; the audit counts such a document as idle when it has no uses.
    var idleFiles: [String] = []
    /// Families the file declares as tokens of their own (`fontFamily`), used by a text style or not.
    var declaredFamilies: [DeclaredFamily] = []

    /// A family declared as a token: the audit reports those no text style uses.
    struct DeclaredFamily: Sendable, Hashable {
        /// The family the token names (the first real family of its stack).
        package var family: String
        /// Where the token is.
        package var origin: UseOrigin
    }

    package init(file: String, format: AuditInputFormat, uses: [TypographyUse], notes: [String] = []) {
        self.file = file
        self.format = format
        self.uses = uses
        self.notes = notes
    }
}

/// What a registry scans and where it keeps its caches.
public struct RegistryConfiguration: Sendable, Hashable {
    /// Directories scanned recursively for font files.
    public var fontDirectories: [String]
    /// Single font files.
    public var fontFiles: [String]
    /// A directory of `*.json` family rules (see `docs/rules.md`).
    public var rulesDirectory: String?
    /// Also index every font of the system's fontconfig configuration.
    public var includeSystemFonts: Bool
    /// The cache directory of the private fontconfig configuration; a per-user temporary one when `nil`.
    public var cacheDirectory: String?
    /// For some of the directories and files above: the directories (symlinks resolved) that
    /// links found under them may lead into (see ``FontRegistry/register(paths:confinedTo:filesOwnedBy:)``).
    public var confinement: [String: [String]] = [:]
    /// Font files larger than this many bytes are reported as problems and never read
    /// (64 MiB by default: larger than any real font, small enough that no file can exhaust memory).
    public var maximumFontFileSize: Int64 = FontScanner.defaultMaximumFileSize
    /// Where font files are parsed: in this process (the default), or in sandboxed worker
    /// processes, as the daemon does for the files its users hand it (see ``FaceParsing``).
    public var parsing: FaceParsing = .inProcess

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - fontDirectories: directories scanned recursively for font files.
    ///   - fontFiles: single font files.
    ///   - rulesDirectory: a directory of `*.json` family rules, or `nil` for the default rules.
    ///   - includeSystemFonts: whether to index the fonts of the system's fontconfig configuration too.
    ///   - cacheDirectory: where the private fontconfig cache goes; a per-user temporary directory when `nil`.
    public init(
        fontDirectories: [String] = [], fontFiles: [String] = [], rulesDirectory: String? = nil,
        includeSystemFonts: Bool = false, cacheDirectory: String? = nil
    ) {
        self.fontDirectories = fontDirectories
        self.fontFiles = fontFiles
        self.rulesDirectory = rulesDirectory
        self.includeSystemFonts = includeSystemFonts
        self.cacheDirectory = cacheDirectory
    }
}

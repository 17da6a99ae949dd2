/// What the fontconfig bridge file (issue 28) says, and the XML that says it.
///
/// A value built from the registry (``RegistryService/fontconfigBridgeSource(outlivingDaemon:)``)
/// plus the bridge's own directories, turned into a fontconfig configuration by ``xml``.
/// Nothing here touches the file system: the writer stats the registered paths and keeps the
/// links of single files (``FontconfigFileLinks``).
package struct FontconfigBridgeContent: Sendable, Hashable {
    /// A single registered font file, exposed through a link in the bridge's directory of links.
    package struct LinkedFile: Sendable, Hashable {
        /// The registered file (symlinks resolved).
        package var path: String
        /// The link's path in the directory of links, which is what fontconfig reports as the face's `file`.
        package var link: String

        /// A file and its link.
        package init(path: String, link: String) {
            self.path = path
            self.link = link
        }
    }

    /// A family alias of the rules: fontconfig resolves `alias` as `target`.
    package struct Alias: Sendable, Hashable {
        /// The alias (deprecated ones too).
        package var alias: String
        /// The family the alias stands for.
        package var target: String

        /// An alias and its target.
        package init(alias: String, target: String) {
            self.alias = alias
            self.target = target
        }
    }

    /// Registered directories, each a `<dir>`.
    package var directories: [String] = []
    /// Registered single files, each through a link in ``linkDirectory``.
    package var files: [LinkedFile] = []
    /// The daemon's directory of links to single files (a `<dir>` when ``files`` is not empty).
    package var linkDirectory: String
    /// The daemon's fontconfig cache directory (`<cachedir>`).
    package var cacheDirectory: String
    /// Administrators' disables (system-wide ones only; a user's own apply to private fonts, never listed here).
    package var disabled: [DisabledEntry] = []
    /// The rules' aliases.
    package var aliases: [Alias] = []

    /// Content with the bridge's own directories and nothing registered.
    package init(linkDirectory: String, cacheDirectory: String) {
        self.linkDirectory = linkDirectory
        self.cacheDirectory = cacheDirectory
    }

    /// The configuration as fontconfig reads it, and what had to be left out.
    package struct Rendered: Sendable, Hashable {
        /// The whole file, UTF-8.
        package var text: String
        /// One line per path or name left out because fontconfig cannot take it (NUL, a control
        /// character, text that was not valid UTF-8, a relative path).
        package var skipped: [String]
    }

    /// The fontconfig configuration: `<dir>`s, the `<cachedir>`, `<selectfont><rejectfont>` for
    /// each disable and `<alias binding="same">` for each alias, every name and path XML-escaped.
    package var xml: Rendered {
        var body: [String] = []
        var skipped: [String] = []
        func accept(_ text: String, what: String, path: Bool) -> String? {
            if let reason = Self.refusal(of: text, isPath: path) {
                skipped.append("\(what) \(String(reflecting: text)) left out of the fontconfig bridge: \(reason)")
                return nil
            }
            return Self.escaped(text)
        }
        for directory in directories {
            if let dir = accept(directory, what: "directory", path: true) { body.append("  <dir>\(dir)</dir>") }
        }
        let usable = files.filter {
            accept($0.path, what: "file", path: true) != nil && accept($0.link, what: "link", path: true) != nil
        }
        if !usable.isEmpty, let links = accept(linkDirectory, what: "directory", path: true) {
            body.append("  <!-- single registered files, as links the daemon keeps: -->")
            body.append("  <dir>\(links)</dir>")
        }
        if let cache = accept(cacheDirectory, what: "cache directory", path: true) {
            body.append("  <cachedir>\(cache)</cachedir>")
        }
        var rejects: [String] = []
        for entry in disabled {
            guard let value = accept(entry.value, what: "disabled \(entry.kind.rawValue)", path: entry.kind == .file)
            else { continue }
            switch entry.kind {
            case .file:
                rejects.append(Self.fileReject(value, raw: entry.value))
                for file in usable where file.path == entry.value {
                    rejects.append(Self.fileReject(Self.escaped(file.link), raw: file.link))
                }
            case .face: rejects.append(Self.patternReject("postscriptname", value))
            case .family: rejects.append(Self.patternReject("family", value))
            }
        }
        if !rejects.isEmpty {
            body.append("  <selectfont>")
            body.append("    <rejectfont>")
            body += rejects
            body.append("    </rejectfont>")
            body.append("  </selectfont>")
        }
        for alias in aliases {
            guard let name = accept(alias.alias, what: "alias", path: false),
                let target = accept(alias.target, what: "family", path: false)
            else { continue }
            body.append(
                "  <alias binding=\"same\"><family>\(name)</family><prefer><family>\(target)</family></prefer></alias>")
        }
        let text = ([Self.header] + body + ["</fontconfig>", ""]).joined(separator: "\n")
        return Rendered(text: text, skipped: skipped)
    }

    /// The file's first lines, up to `<fontconfig>`.
    static let header = """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <!-- Written by fontregd (the fontconfig bridge, docs/daemon.md); rewritten on every change: do not edit. -->
        <fontconfig>
        """

    /// A `<glob>` for a file path; a path holding fontconfig's glob characters (`*`, `?`), which
    /// a glob cannot take literally, becomes an exact `file` pattern instead.
    static func fileReject(_ escaped: String, raw: String) -> String {
        if raw.contains("*") || raw.contains("?") { return patternReject("file", escaped) }
        return "      <glob>\(escaped)</glob>"
    }

    /// A `<pattern>` naming one value of one property.
    static func patternReject(_ property: String, _ escaped: String) -> String {
        "      <pattern><patelt name=\"\(property)\"><string>\(escaped)</string></patelt></pattern>"
    }

    /// `text` with XML's five special characters replaced by entities.
    ///
    /// - Parameter text: a path or name.
    /// - Returns: text safe inside an element or a quoted attribute.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// Why fontconfig cannot take `text`, or `nil` when it can.
    ///
    /// XML 1.0 has no way to write NUL or most control characters, even as entities; a
    /// U+FFFD stands for bytes that were not UTF-8, so the path spelled here is not the file's.
    ///
    /// - Parameters:
    ///   - text: a path or name.
    ///   - isPath: whether `text` must be an absolute path.
    /// - Returns: the reason, for the log.
    package static func refusal(of text: String, isPath: Bool) -> String? {
        if text.isEmpty { return "it is empty" }
        if isPath && !text.hasPrefix("/") { return "not an absolute path" }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0: return "it contains NUL"
            // XML would keep a tab or a line break, but fontconfig may trim them at either end.
            case 0x01..<0x20: return "it contains the control character U+\(hex(scalar.value))"
            case 0xFFFD: return "it was not valid UTF-8 (U+FFFD)"
            case 0xFFFE, 0xFFFF: return "it contains the non-character U+\(hex(scalar.value))"
            default: continue
            }
        }
        return nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

import FontRegJSON
import Foundation

/// A Tokens Studio sync folder: `$metadata.json` (`tokenSetOrder`), `$themes.json` (the themes, each
/// selecting token sets as `enabled`, `source` or `disabled`) and one JSON file per token set
/// (`core.json`, `semantic/typography.json`, the set's name being its path without `.json`).
///
/// Every theme is audited as its own input unless one is picked; a theme's `source` sets are read for
/// references only, their styles and palette not counted. Without themes every set is read, in
/// `tokenSetOrder` (a later set's token replacing an earlier one of the same path).
struct TokensStudioSync {
    /// One theme of `$themes.json`.
    struct Theme {
        /// Its name (`Light`, `Brand A`).
        var name: String
        /// The sets it selects, by name, with `enabled` or `source`.
        var sets: [String: String]
        /// Where the theme is written, for errors.
        var position: SourcePosition
    }

    /// The folder.
    let folder: String
    /// Set names in the order they merge.
    let setOrder: [String]
    /// The themes, in file order (empty when the folder has none).
    let themes: [Theme]
    /// Set name → file.
    let setFiles: [String: String]

    /// Whether `path` is one of the files that make a folder a sync folder.
    static func isSyncFile(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name == "$metadata.json" || name == "$themes.json"
    }

    /// Reads the folder's metadata and themes and finds its set files.
    init(folder: String) throws(AuditInputError) {
        self.folder = folder
        var files: [String: String] = [:]
        for file in TypographyReader.files(under: folder, extensions: ["json"]) {
            let name = (file as NSString).lastPathComponent
            guard !name.hasPrefix("$") else { continue }
            var relative = String(file.dropFirst(folder.count))
            while relative.hasPrefix("/") { relative.removeFirst() }
            files[String(relative.dropLast(".json".count))] = file
        }
        setFiles = files
        var order: [String] = []
        let metadataPath = (folder as NSString).appendingPathComponent("$metadata.json")
        if FileManager.default.fileExists(atPath: metadataPath) {
            let root = try TypographyReader.parse(json: try TypographyReader.text(of: metadataPath), file: metadataPath)
            guard let entries = root["tokenSetOrder"]?.arrayValue else {
                throw .invalidStyle(
                    file: metadataPath, location: "top level", position: root.position,
                    reason:
                        "a Tokens Studio $metadata.json holds {\"tokenSetOrder\": [\"set\", …]}; add the list of set names"
                )
            }
            order = entries.compactMap(\.stringValue)
        }
        for name in files.keys.sorted() where !order.contains(name) { order.append(name) }
        setOrder = order.filter { files[$0] != nil }
        var themes: [Theme] = []
        let themesPath = (folder as NSString).appendingPathComponent("$themes.json")
        if FileManager.default.fileExists(atPath: themesPath) {
            let root = try TypographyReader.parse(json: try TypographyReader.text(of: themesPath), file: themesPath)
            guard let entries = root.arrayValue else {
                throw .invalidStyle(
                    file: themesPath, location: "top level", position: root.position,
                    reason:
                        "a Tokens Studio $themes.json is an array of themes {\"name\", \"selectedTokenSets\"}, found \(root.kindName)"
                )
            }
            for (index, entry) in entries.enumerated() {
                guard let name = entry["name"]?.stringValue, let selected = entry["selectedTokenSets"]?.members else {
                    throw .invalidStyle(
                        file: themesPath, location: "theme \(index + 1)", position: entry.position,
                        reason:
                            "a theme needs a \"name\" and \"selectedTokenSets\" {\"set\": \"enabled\"|\"source\"|\"disabled\"}"
                    )
                }
                var sets: [String: String] = [:]
                for member in selected {
                    let status = member.value.stringValue ?? ""
                    guard status != "disabled" else { continue }
                    guard status == "enabled" || status == "source" else {
                        throw .invalidStyle(
                            file: themesPath, location: "theme \(name), set \(member.key)",
                            position: member.value.position,
                            reason: "a set is \"enabled\", \"source\" or \"disabled\", found \(member.value.kindName)")
                    }
                    guard files[member.key] != nil else {
                        throw .invalidStyle(
                            file: themesPath, location: "theme \(name)", position: member.keyPosition,
                            reason:
                                "the theme selects set \"\(member.key)\", but \(folder) holds no \(member.key).json; add the set file or remove it from the theme"
                        )
                    }
                    sets[member.key] = status
                }
                themes.append(Theme(name: name, sets: sets, position: entry.position))
            }
        }
        self.themes = themes
    }

    /// One document per theme (or the one named), or one for all sets when there are no themes.
    ///
    /// - Throws: ``AuditInputError/unknownTheme(name:file:themes:)`` when `theme` names none of them.
    func documents(theme: String?, includeDeprecated: Bool) throws(AuditInputError) -> [TypographyDocument] {
        if let theme, !themes.contains(where: { $0.name == theme }) {
            throw .unknownTheme(
                name: theme, file: (folder as NSString).appendingPathComponent("$themes.json"),
                themes: themes.map(\.name))
        }
        guard !themes.isEmpty else {
            return [
                try document(sets: setOrder.map { ($0, "enabled") }, theme: nil, includeDeprecated: includeDeprecated)
            ]
        }
        var documents: [TypographyDocument] = []
        for candidate in themes where theme == nil || candidate.name == theme {
            let sets = setOrder.compactMap { name in candidate.sets[name].map { (name, $0) } }
            documents.append(try document(sets: sets, theme: candidate.name, includeDeprecated: includeDeprecated))
        }
        return documents
    }

    private func document(sets: [(name: String, status: String)], theme: String?, includeDeprecated: Bool)
        throws(AuditInputError) -> TypographyDocument
    {
        var sources: [(root: SourceJSONValue, file: String)] = []
        for set in sets {
            let file = setFiles[set.name]!
            sources.append((try TypographyReader.parse(json: try TypographyReader.text(of: file), file: file), file))
        }
        let tree = try TokenTree(sources: sources, dialect: .tokensStudio)
        var reader = TokenTypographyReader(tree: tree, format: .tokensStudio, includeDeprecated: includeDeprecated)
        reader.referenceOnlyFiles = Set(sets.filter { $0.status == "source" }.map { setFiles[$0.name]! })
        reader.theme = theme
        var document = try reader.read()
        document.file = theme.map { "\(folder) [theme \($0)]" } ?? folder
        let enabled = sets.filter { $0.status == "enabled" }.map(\.name)
        let source = sets.filter { $0.status == "source" }.map(\.name)
        var note = "\(folder): "
        note += theme.map { "theme \"\($0)\" reads" } ?? "no themes; read"
        note += " sets \(enabled.isEmpty ? "(none)" : enabled.joined(separator: ", "))"
        if !source.isEmpty { note += "; for references only: \(source.joined(separator: ", "))" }
        document.notes.insert(note, at: 0)
        return document
    }
}

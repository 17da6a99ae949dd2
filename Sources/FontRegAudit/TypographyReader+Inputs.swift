import FontRegJSON
import Foundation

extension TypographyReader {
    /// Reads every input, merging the token files into one tree before references resolve.
    ///
    /// Each input is a file, a folder or a glob (`tokens/**/*.json5`, expanded here so it works
    /// quoted). A folder holding `.json`/`.json5` files contributes them all; a folder of `.swift`
    /// files is read as Swift source. A folder with Tokens Studio's `$metadata.json` or `$themes.json`
    /// (or either file given alone) is a sync folder: its sets are read per theme (see
    /// ``TokensStudioSync``). DTCG files merge with each other, as do Tokens Studio files and Style
    /// Dictionary files, in the order given (a later file's token replaces an earlier one of the same
    /// path); other formats are read one file at a time.
    /// - Parameters:
    ///   - paths: files, folders or globs.
    ///   - format: the format to use instead of detecting it.
    ///   - includeDeprecated: count tokens marked `$deprecated` or `deprecated`.
    ///   - theme: the Tokens Studio theme to read (every theme when `nil`).
    /// - Returns: one document per Swift input, native list or Figma export, one per merged token set,
    ///   and one per theme of a sync folder.
    /// - Throws: ``AuditInputError`` naming the file, line and column.
    package static func read(
        paths: [String], format: AuditInputFormat? = nil, includeDeprecated: Bool = false, theme: String? = nil
    ) throws(AuditInputError) -> [TypographyDocument] {
        var documents: [TypographyDocument] = []
        var tokenSets: [AuditInputFormat: [(root: SourceJSONValue, file: String)]] = [:]
        var setOrder: [AuditInputFormat] = []
        let inputs = try expand(paths)
        let syncFolders = inputs.filter { TokensStudioSync.isSyncFile($0.path) }.reduce(into: [String]()) {
            let folder = ($1.path as NSString).deletingLastPathComponent
            if !$0.contains(folder) { $0.append(folder) }
        }
        if let theme, syncFolders.isEmpty { throw .unknownTheme(name: theme, file: nil, themes: []) }
        for folder in syncFolders {
            let sync = try TokensStudioSync(folder: folder.isEmpty ? "." : folder)
            documents += try sync.documents(theme: theme, includeDeprecated: includeDeprecated)
        }
        for input in inputs {
            if syncFolders.contains(where: { input.path.hasPrefix($0.isEmpty ? "" : $0 + "/") }) { continue }
            if input.isSwiftFolder || format == .swift || (format == nil && input.path.hasSuffix(".swift")) {
                documents.append(try read(path: input.path, format: format, includeDeprecated: includeDeprecated))
                continue
            }
            if format == .tokenModule
                || (format == nil && moduleExtensions.contains((input.path as NSString).pathExtension.lowercased()))
            {
                documents.append(try read(path: input.path, format: .tokenModule, includeDeprecated: includeDeprecated))
                continue
            }
            if isCSS(input.path, format: format) {
                documents.append(try read(path: input.path, format: .css, includeDeprecated: includeDeprecated))
                continue
            }
            let content = try text(of: input.path)
            let root = try parse(json: content, file: input.path)
            guard let detected = format ?? AuditInputFormat.detect(json: root) else {
                throw .unknownFormat(path: input.path, shape: AuditInputFormat.describeShape(json: root))
            }
            if detected == .dtcg || detected == .tokensStudio || detected == .styleDictionary {
                if tokenSets[detected] == nil { setOrder.append(detected) }
                tokenSets[detected, default: []].append((root, input.path))
            } else {
                documents.append(
                    try read(
                        root: root, content: content, file: input.path, format: detected,
                        includeDeprecated: includeDeprecated))
            }
        }
        for setFormat in setOrder {
            let tree = try TokenTree(
                sources: tokenSets[setFormat]!, dialect: setFormat == .dtcg ? .dtcg : .tokensStudio)
            documents.append(
                try TokenTypographyReader(tree: tree, format: setFormat, includeDeprecated: includeDeprecated).read())
        }
        return documents
    }

    /// One input after expansion: a file, or a folder read as Swift source.
    struct Input {
        /// The file or folder.
        var path: String
        /// Whether it is a folder of Swift files.
        var isSwiftFolder: Bool
    }

    /// Expands globs and folders into files, keeping the order given.
    static func expand(_ paths: [String]) throws(AuditInputError) -> [Input] {
        var inputs: [Input] = []
        for path in paths {
            let matches = path.contains(where: { "*?[".contains($0) }) ? glob(path) : [path]
            guard !matches.isEmpty else { throw .unreadable(path: path, reason: "the pattern matches no file") }
            for match in matches {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: match, isDirectory: &isDirectory) else {
                    throw .unreadable(path: match, reason: "no such file or directory")
                }
                guard isDirectory.boolValue else {
                    inputs.append(Input(path: match, isSwiftFolder: false))
                    continue
                }
                var tokenFiles = files(under: match, extensions: ["json", "json5"])
                if tokenFiles.isEmpty { tokenFiles = files(under: match, extensions: ["css"]) }
                if tokenFiles.isEmpty, files(under: match, extensions: ["swift"]).isEmpty {
                    tokenFiles = files(under: match, extensions: moduleExtensions)
                }
                if tokenFiles.isEmpty {
                    inputs.append(Input(path: match, isSwiftFolder: true))
                } else {
                    inputs += tokenFiles.map { Input(path: $0, isSwiftFolder: false) }
                }
            }
        }
        return inputs
    }

    /// The files matching a shell pattern, sorted: `*` and `?` within a name, `**/` any number of folders.
    static func glob(_ pattern: String) -> [String] {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let fixed = segments.prefix { !$0.contains(where: { "*?[".contains($0) }) }
        var base = fixed.joined(separator: "/")
        if base.isEmpty { base = pattern.hasPrefix("/") ? "/" : "." }
        let rest = segments.dropFirst(fixed.count).joined(separator: "/")
        var expression = "^"
        var characters = Substring(rest)
        while let character = characters.first {
            if characters.hasPrefix("**/") {
                expression += "(.*/)?"
                characters = characters.dropFirst(3)
                continue
            }
            switch character {
            case "*": expression += "[^/]*"
            case "?": expression += "[^/]"
            case "[", "]": expression.append(character)
            default: expression += NSRegularExpression.escapedPattern(for: String(character))
            }
            characters = characters.dropFirst()
        }
        guard let regex = try? NSRegularExpression(pattern: expression + "$"),
            let enumerator = FileManager.default.enumerator(atPath: base)
        else { return [] }
        var matches: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let range = NSRange(relative.startIndex..., in: relative)
            if regex.firstMatch(in: relative, range: range) != nil {
                matches.append(
                    base == "." && !pattern.hasPrefix("./")
                        ? relative : (base as NSString).appendingPathComponent(relative))
            }
        }
        return matches.sorted()
    }

    /// Files below `folder` with one of the extensions, sorted.
    static func files(under folder: String, extensions: Set<String>) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if extensions.contains((relative as NSString).pathExtension.lowercased()) {
                files.append((folder as NSString).appendingPathComponent(relative))
            }
        }
        return files.sorted()
    }
}

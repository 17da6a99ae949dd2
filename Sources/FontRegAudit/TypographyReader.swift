import FontRegJSON
import Foundation

/// Reads audit inputs from disk: detects each file's format and hands it to the right reader.
package enum TypographyReader {
    /// Reads one file or folder.
    ///
    /// A folder is read as Swift source (every `*.swift` below it, read together). A `.swift` file is
    /// Swift; anything else must be JSON, and its format is detected from the content unless given.
    /// - Parameters:
    ///   - path: the file or folder.
    ///   - format: the format to use instead of detecting it.
    ///   - includeDeprecated: count tokens marked `$deprecated` (left out by default).
    /// - Returns: the text styles found.
    /// - Throws: ``AuditInputError`` naming the file and, for JSON, the line and column.
    package static func read(path: String, format: AuditInputFormat? = nil, includeDeprecated: Bool = false)
        throws(AuditInputError) -> TypographyDocument
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file or directory")
        }
        if isDirectory.boolValue {
            let files = swiftFiles(under: path)
            guard !files.isEmpty else {
                throw .unreadable(
                    path: path, reason: "the folder holds no .json, .json5 or .swift files; pass the token files")
            }
            var sources: [(path: String, text: String)] = []
            for file in files { sources.append((file, try text(of: file))) }
            var document = try SwiftTypographyReader.read(sources: sources)
            document.file = path
            return document
        }
        let content = try text(of: path)
        if format == .tokenModule
            || (format == nil && moduleExtensions.contains((path as NSString).pathExtension.lowercased()))
        {
            return try TokenModuleReader(file: path, text: content).read(includeDeprecated: includeDeprecated)
        }
        if format == .swift || (format == nil && path.hasSuffix(".swift")) {
            return try SwiftTypographyReader.read(sources: [(path, content)])
        }
        if isCSS(path, format: format) {
            return try CSSTypographyReader(file: path, text: content).read(includeDeprecated: includeDeprecated)
        }
        return try read(json: content, file: path, format: format, includeDeprecated: includeDeprecated)
    }

    /// Reads a JSON or JSON5 input given as text.
    ///
    /// - Throws: ``AuditInputError/json(_:)`` with line and column, or a reader's error.
    package static func read(
        json content: String, file: String, format: AuditInputFormat? = nil, includeDeprecated: Bool = false
    ) throws(AuditInputError) -> TypographyDocument {
        let root = try parse(json: content, file: file)
        guard let format = format ?? AuditInputFormat.detect(json: root) else {
            throw .unknownFormat(path: file, shape: AuditInputFormat.describeShape(json: root))
        }
        return try read(root: root, content: content, file: file, format: format, includeDeprecated: includeDeprecated)
    }

    /// Parses JSON, or JSON5 when the file is `.json5` or is not strict JSON but is valid JSON5.
    ///
    /// - Throws: the strict parser's error for a `.json` file that is neither, else the JSON5 parser's.
    static func parse(json content: String, file: String) throws(AuditInputError) -> SourceJSONValue {
        if file.lowercased().hasSuffix(".json5") {
            do {
                return try SourceJSONParser.parse(content, file: file, dialect: .json5)
            } catch {
                throw .json(error)
            }
        }
        do {
            return try SourceJSONParser.parse(content, file: file)
        } catch {
            if let relaxed = try? SourceJSONParser.parse(content, file: file, dialect: .json5) { return relaxed }
            throw .json(error)
        }
    }

    /// Reads one parsed input in a known format.
    static func read(
        root: SourceJSONValue, content: String, file: String, format: AuditInputFormat, includeDeprecated: Bool
    ) throws(AuditInputError) -> TypographyDocument {
        switch format {
        case .figmaVariables:
            return try FigmaVariablesReader(file: file, root: root).read()
        case .dtcg:
            let tree = try TokenTree(root: root, file: file, dialect: .dtcg)
            return try TokenTypographyReader(tree: tree, format: .dtcg, includeDeprecated: includeDeprecated).read()
        case .tokensStudio, .styleDictionary:
            let tree = try TokenTree(root: root, file: file, dialect: .tokensStudio)
            return try TokenTypographyReader(tree: tree, format: format, includeDeprecated: includeDeprecated).read()
        case .native:
            return try NativeStyleListReader(file: file, root: root).read()
        case .swift:
            return try SwiftTypographyReader.read(sources: [(file, content)])
        case .tokenModule:
            return try TokenModuleReader(file: file, text: content).read(includeDeprecated: includeDeprecated)
        case .css:
            return try CSSTypographyReader(file: file, text: content).read(includeDeprecated: includeDeprecated)
        }
    }

    /// Whether a file is read as CSS: `--format css`, or a `.css` file when no format is given.
    static func isCSS(_ path: String, format: AuditInputFormat?) -> Bool {
        format == .css || (format == nil && (path as NSString).pathExtension.lowercased() == "css")
    }

    /// Extensions of JavaScript and TypeScript modules, which the audit does not run.
    static let moduleExtensions: Set<String> = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"]

    /// The error for a token module that cannot be read statically: why, and which built output to pass instead.
    static func moduleError(_ path: String, detail: String) -> AuditInputError {
        .unsupportedFormat(
            path: path, kind: "a TypeScript/JavaScript module that is not plain data",
            advice:
                "\(detail); the audit runs no JavaScript, so pass the JSON the package builds from it (its DTCG, Tokens Studio or Style Dictionary tokens, often in dist/ or build/) or the source JSON it imports"
        )
    }

    static func text(of path: String) throws(AuditInputError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "permission denied or not a regular file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "the file is not UTF-8 text")
        }
        return text
    }

    private static func swiftFiles(under folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append((folder as NSString).appendingPathComponent(relative)) }
        }
        return files.sorted()
    }
}

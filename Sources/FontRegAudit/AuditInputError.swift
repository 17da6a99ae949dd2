import FontRegJSON

/// Why an audit input could not be read; every case says where and what to do.
package enum AuditInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder could not be opened.
    case unreadable(path: String, reason: String)
    /// The JSON is malformed.
    case json(SourceJSONError)
    /// The format could not be told from the content; `shape` says what the content looks like.
    case unknownFormat(path: String, shape: String)
    /// The file is in a format the audit does not read (a TypeScript module); `advice` says what to pass instead.
    case unsupportedFormat(path: String, kind: String, advice: String)
    /// `--theme` names a theme the Tokens Studio sync folder does not have (or no input has themes).
    case unknownTheme(name: String, file: String?, themes: [String])
    /// `--format` named a format that does not exist.
    case unknownFormatName(String)
    /// A reference points at a token that does not exist.
    case brokenReference(file: String, tokenPath: String, reference: String, position: SourcePosition?)
    /// A chain of references comes back to where it started.
    case circularReference(file: String, chain: [String], position: SourcePosition?)
    /// A weight name is not one the format accepts.
    case unknownWeight(file: String, location: String, value: String, position: SourcePosition?, accepted: [String])
    /// A token or style is malformed in some other way.
    case invalidStyle(file: String, location: String, position: SourcePosition?, reason: String)

    private static func place(_ file: String, _ position: SourcePosition?) -> String {
        guard let position else { return file }
        return "\(file):\(position.line):\(position.column)"
    }

    /// Where the problem is, for CI annotations: the file and, when known, the line and column.
    package var location: (file: String, position: SourcePosition?)? {
        switch self {
        case .unreadable(let path, _): (path, nil)
        case .json(let error): (error.file ?? "<input>", error.position)
        case .unknownFormat(let path, _), .unsupportedFormat(let path, _, _): (path, nil)
        case .unknownTheme(_, let file, _): file.map { ($0, nil) }
        case .unknownFormatName: nil
        case .brokenReference(let file, _, _, let position), .circularReference(let file, _, let position),
            .unknownWeight(let file, _, _, let position, _), .invalidStyle(let file, _, let position, _):
            (file, position)
        }
    }

    /// The message for a person: where, what is wrong, and what to do.
    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read the input (\(reason)); check the path and its permissions"
        case .json(let error):
            return "\(error)"
        case .unknownFormat(let path, let shape):
            return
                "\(path): cannot tell the input format: the content is \(shape); pass --format \(AuditInputFormat.allCases.map(\.rawValue).joined(separator: ", ")) if it is one of these"
        case .unsupportedFormat(let path, let kind, let advice):
            return "\(path): \(kind) is not read by the audit; \(advice)"
        case .unknownTheme(let name, let file, let themes):
            guard let file else {
                return
                    "--theme \(name): no input has themes; --theme picks a theme of a Tokens Studio sync folder ($themes.json)"
            }
            return
                "\(file): no theme named \"\(name)\"; the themes are: \(themes.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .unknownFormatName(let name):
            return
                "unknown input format '\(name)'; use one of: \(AuditInputFormat.allCases.map(\.rawValue).joined(separator: ", "))"
        case .brokenReference(let file, let tokenPath, let reference, let position):
            return
                "\(Self.place(file, position)): token \(tokenPath) refers to \(reference), which does not exist; fix the reference or add the token"
        case .circularReference(let file, let chain, let position):
            return
                "\(Self.place(file, position)): circular reference \(chain.joined(separator: " → ")); one of these tokens must hold a value instead of a reference"
        case .unknownWeight(let file, let location, let value, let position, let accepted):
            return
                "\(Self.place(file, position)): \(location): unknown font weight \"\(value)\"; accepted: \(accepted.joined(separator: ", ")), or a number from 1 to 1000"
        case .invalidStyle(let file, let location, let position, let reason):
            return "\(Self.place(file, position)): \(location): \(reason)"
        }
    }
}

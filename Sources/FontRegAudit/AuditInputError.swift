import FontRegCore
import FontRegJSON

/// Why an audit input could not be read; every case says where and what to do.
package enum AuditInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder could not be opened.
    case unreadable(path: String, reason: String)
    /// The JSON is malformed.
    case json(SourceJSONError)
    /// The format could not be told from the content.
    case unknownFormat(path: String)
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
        case .unknownFormat(let path): (path, nil)
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
        case .unknownFormat(let path):
            return
                "\(path): cannot tell the input format from its content; pass --format dtcg, tokens-studio, swift or native"
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

import FontRegCore
import FontRegJSON

/// The answer of `FaceCoverage` and of `fontresolve face NAME --covers TEXT` (issue 12).
public struct FaceCoverageReply: Sendable, Hashable, Codable {
    /// The face's PostScript name.
    public var postscriptName: String
    /// The code points of the text the face does not map, each once, in order.
    public var missing: [Int]
    /// How many code points the face maps.
    public var codePoints: Int
    /// fontconfig's language tags the face covers.
    public var languages: [String]

    /// The reply for a face and a text.
    ///
    /// - Parameters:
    ///   - face: the face.
    ///   - text: the text to check.
    public init(face: FaceRecord, text: String) {
        postscriptName = face.postscriptName
        missing = face.coverage.missing(in: text).map { Int($0.value) }
        codePoints = face.coverage.codePointCount
        languages = face.coverage.languages
    }

    /// The reply's members, as the daemon sends them.
    package var parameters: [String: JSONValue] {
        guard let tree = try? JSONValue(encoding: self), let object = tree.objectValue else {
            preconditionFailure("a coverage reply always encodes to a JSON object")
        }
        return object
    }

    /// Reads a reply from its members; `nil` when they are not a coverage reply.
    package init?(parameters: [String: JSONValue]) {
        guard let value = try? JSONValue.object(parameters).decode(FaceCoverageReply.self) else { return nil }
        self = value
    }
}

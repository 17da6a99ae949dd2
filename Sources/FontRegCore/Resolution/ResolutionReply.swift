import FontRegJSON
import FontRegSystem
import Foundation

/// The flat JSON shape of a ``Resolution``, shared by `fontresolve resolve --json` and the daemon's `Resolve` reply.
///
/// Keys are stable; encode with `.sortedKeys`.
public struct ResolutionReply: Sendable, Hashable, Codable {
    public var postscriptName: String
    public var file: String
    /// The face index inside the file.
    public var index: Int
    /// The named-instance number of a variable font (1-based), when the face is one.
    public var instance: Int?
    /// The weight of the face found.
    public var weight: Int
    public var italic: Bool
    public var family: String
    public var match: String
    public var composedName: String?
    public var requestedWeight: Int
    public var effectiveWeight: Int
    public var resolvedFamily: String
    public var boldPolicy: String?
    public var trace: [String]
    public var warnings: [String]
    /// The whole face record.
    public var face: FaceRecord

    public init(_ resolution: Resolution) {
        let face = resolution.face
        postscriptName = face.postscriptName
        file = face.file
        index = face.index
        instance = face.instance
        weight = face.weight
        italic = face.italic
        family = face.family
        match = resolution.match.rawValue
        composedName = resolution.composedName
        requestedWeight = resolution.requestedWeight
        effectiveWeight = resolution.effectiveWeight
        resolvedFamily = resolution.resolvedFamily
        boldPolicy = resolution.boldPolicy?.rawValue
        trace = resolution.trace
        warnings = resolution.warnings
        self.face = face
    }

    /// Pretty, key-sorted JSON of any encodable value, as every command prints it.
    package static func json<T: Encodable>(_ value: T, pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

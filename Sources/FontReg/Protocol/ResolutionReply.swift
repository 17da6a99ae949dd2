/// A resolution flattened for output: the reply of `Resolve` and the output of `fontresolve resolve --json`.
///
/// This is the one place where a ``Resolution`` becomes the flat record clients see:
/// the face's most used fields at the top level (`postscriptName`, `file`, `index`,
/// `weight`, `italic`), how it was found, the trace and warnings, the family asked for
/// and the family resolved, and the whole face under `face`.
public struct ResolutionReply: Sendable, Hashable {
    /// The resolver's answer.
    public var resolution: Resolution
    /// The family the query asked for, as given.
    public var family: String

    public init(resolution: Resolution, family: String) {
        self.resolution = resolution
        self.family = family
    }

    /// The flat record as a JSON object.
    public var jsonValue: JSONValue { .object(parameters) }

    /// The flat record's members; the reply parameters of `Resolve`.
    public var parameters: [String: JSONValue] {
        let face = resolution.face
        var object: [String: JSONValue] = [
            "postscriptName": .string(face.postscriptName),
            "file": .string(face.file),
            "index": .int(face.index),
            "weight": .int(face.weight),
            "italic": .bool(face.italic),
            "match": .string(resolution.match.rawValue),
            "composedName": .string(resolution.composedName),
            "requestedWeight": .int(resolution.requestedWeight),
            "effectiveWeight": .int(resolution.effectiveWeight),
            "trace": .array(resolution.trace.map { .string($0) }),
            "warnings": .array(resolution.warnings.map { .string($0) }),
            "family": .string(family),
            "resolvedFamily": .string(resolution.resolvedFamily),
            "face": face.jsonValue,
        ]
        if let policy = resolution.boldPolicy { object["boldPolicy"] = .string(policy.rawValue) }
        return object
    }

    /// The flat record as JSON text with sorted keys, indented two spaces per level when `pretty`.
    public func jsonText(pretty: Bool = true) -> String {
        pretty ? jsonValue.prettyPrinted() : jsonValue.description
    }

    /// Reads the flat record back, e.g. from a `Resolve` reply.
    ///
    /// - Returns: `nil` when a required member is missing or of the wrong type.
    public init?(parameters object: [String: JSONValue]) {
        guard let faceValue = object["face"], let face = FaceRecord(jsonValue: faceValue),
            let matchText = object["match"]?.stringValue, let match = Resolution.MatchKind(rawValue: matchText),
            let requested = object["requestedWeight"]?.intValue, let effective = object["effectiveWeight"]?.intValue
        else { return nil }
        let resolution = Resolution(
            face: face, composedName: object["composedName"]?.stringValue ?? "", match: match,
            requestedWeight: requested, effectiveWeight: effective,
            resolvedFamily: object["resolvedFamily"]?.stringValue ?? face.family,
            boldPolicy: object["boldPolicy"]?.stringValue.flatMap { BoldTextPolicy(rawValue: $0) },
            trace: (object["trace"]?.arrayValue ?? []).compactMap(\.stringValue),
            warnings: (object["warnings"]?.arrayValue ?? []).compactMap(\.stringValue))
        self.init(resolution: resolution, family: object["family"]?.stringValue ?? face.family)
    }
}

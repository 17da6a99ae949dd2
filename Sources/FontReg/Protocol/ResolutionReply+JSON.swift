extension ResolutionReply {
    /// The reply as a JSON object: exactly the members of its `Codable` encoding (a test checks
    /// this), built directly so the daemon's hot path avoids `JSONEncoder`.
    public var jsonValue: JSONValue { .object(parameters) }

    /// The members of ``jsonValue``; the reply parameters of `Resolve`.
    public var parameters: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "postscriptName": .string(postscriptName),
            "file": .string(file),
            "index": .int(index),
            "weight": .int(weight),
            "italic": .bool(italic),
            "family": .string(family),
            "match": .string(match),
            "requestedWeight": .int(requestedWeight),
            "effectiveWeight": .int(effectiveWeight),
            "resolvedFamily": .string(resolvedFamily),
            "trace": .array(trace.map { .string($0) }),
            "warnings": .array(warnings.map { .string($0) }),
            "face": face.jsonValue,
        ]
        if let instance { object["instance"] = .int(instance) }
        if let composedName { object["composedName"] = .string(composedName) }
        if let boldPolicy { object["boldPolicy"] = .string(boldPolicy) }
        return object
    }

    /// Reads a reply back, e.g. from the parameters of a `Resolve` reply.
    ///
    /// - Returns: `nil` when a required member is missing or of the wrong type.
    public init?(parameters object: [String: JSONValue]) {
        guard let faceValue = object["face"], let face = FaceRecord(jsonValue: faceValue),
            let match = object["match"]?.stringValue,
            let requested = object["requestedWeight"]?.intValue,
            let effective = object["effectiveWeight"]?.intValue
        else { return nil }
        let resolution = Resolution(
            face: face, composedName: object["composedName"]?.stringValue,
            match: Resolution.MatchKind(rawValue: match) ?? .nearestWeight,
            requestedWeight: requested, effectiveWeight: effective,
            resolvedFamily: object["resolvedFamily"]?.stringValue ?? face.family,
            boldPolicy: object["boldPolicy"]?.stringValue.flatMap { BoldTextPolicy(rawValue: $0) },
            trace: (object["trace"]?.arrayValue ?? []).compactMap(\.stringValue),
            warnings: (object["warnings"]?.arrayValue ?? []).compactMap(\.stringValue))
        self.init(resolution)
        self.match = match
        if let family = object["family"]?.stringValue { self.family = family }
    }
}

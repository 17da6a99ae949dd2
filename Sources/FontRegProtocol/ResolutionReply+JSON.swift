import FontRegCore
import FontRegJSON

extension ResolutionReply {
    /// The reply as JSON bytes with sorted keys: exactly the members of its `Codable` encoding
    /// (a test checks this), written directly so the daemon's hot path avoids `JSONEncoder`
    /// and dictionaries.
    package var jsonBytes: [UInt8] {
        var writer = JSONBytesWriter()
        writer.begin()
        if let boldPolicy { writer.member("boldPolicy", boldPolicy) }
        if let composedName { writer.member("composedName", composedName) }
        writer.member("effectiveWeight", effectiveWeight)
        writer.member("face") { face.writeJSON(to: &$0) }
        writer.member("family", family)
        writer.member("file", file)
        writer.member("index", index)
        if let instance { writer.member("instance", instance) }
        writer.member("italic", italic)
        writer.member("match", match)
        writer.member("postscriptName", postscriptName)
        writer.member("requestedWeight", requestedWeight)
        writer.member("resolvedFamily", resolvedFamily)
        writer.member("synthesis") { $0.writeSynthesis(synthesis) }
        writer.member("trace", trace)
        writer.member("variations") { writer in
            writer.begin()
            for (tag, value) in variations.sorted(by: { $0.key < $1.key }) {
                writer.key(tag)
                writer.write(.number(value))
            }
            writer.end()
        }
        writer.member("warnings", warnings)
        writer.member("weight", weight)
        writer.end()
        return writer.output
    }

    /// The reply as a JSON object (parsed from ``jsonBytes``, so the two cannot drift apart).
    package var jsonValue: JSONValue {
        do {
            return try JSONParser.parse(jsonBytes)
        } catch {
            preconditionFailure("ResolutionReply.jsonBytes wrote invalid JSON: \(error)")
        }
    }

    /// The members of ``jsonValue``; the reply parameters of `Resolve`.
    package var parameters: [String: JSONValue] { jsonValue.objectValue ?? [:] }

    /// Reads a reply back, e.g. from the parameters of a `Resolve` reply.
    ///
    /// - Returns: `nil` when a required member is missing or of the wrong type.
    package init?(parameters object: [String: JSONValue]) {
        guard let faceValue = object["face"], let face = FaceRecord(jsonValue: faceValue),
            let match = object["match"]?.stringValue.flatMap(Resolution.MatchKind.init(rawValue:)),
            let requested = object["requestedWeight"]?.intValue,
            let effective = object["effectiveWeight"]?.intValue
        else { return nil }
        let resolution = Resolution(
            face: face, composedName: object["composedName"]?.stringValue,
            match: match,
            requestedWeight: requested, effectiveWeight: effective,
            resolvedFamily: object["resolvedFamily"]?.stringValue ?? face.family,
            boldPolicy: object["boldPolicy"]?.stringValue.flatMap { BoldTextPolicy(rawValue: $0) },
            trace: (object["trace"]?.arrayValue ?? []).compactMap(\.stringValue),
            warnings: (object["warnings"]?.arrayValue ?? []).compactMap(\.stringValue),
            variations: VariationSetting.settings(from: object["variations"], axes: face.axes),
            synthesis: Synthesis(jsonValue: object["synthesis"]))
        self.init(resolution)
        if let family = object["family"]?.stringValue { self.family = family }
    }
}

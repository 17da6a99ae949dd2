import FontRegCore
import FontRegJSON

extension CandidateList {
    /// The `Candidates` reply: `resolvedFamily`, `requestedWeight`, `effectiveWeight` and `candidates`,
    /// each `{exact, face, synthesis, variations, weight}` with `variations` an object from tag to value.
    public var jsonBytes: [UInt8] {
        var writer = JSONBytesWriter()
        writeJSON(to: &writer)
        return writer.output
    }

    /// Writes the reply (see ``jsonBytes``).
    package func writeJSON(to writer: inout JSONBytesWriter) {
        writer.begin()
        writer.member("candidates") { writer in
            writer.array(candidates) { writer, candidate in
                writer.begin()
                writer.member("exact", candidate.exact)
                writer.member("face") { candidate.face.writeJSON(to: &$0) }
                writer.member("synthesis") { $0.writeSynthesis(candidate.synthesis) }
                writer.member("variations") { $0.writeVariations(candidate.variations) }
                writer.member("weight", candidate.weight)
                writer.end()
            }
        }
        writer.member("effectiveWeight", effectiveWeight)
        writer.member("requestedWeight", requestedWeight)
        writer.member("resolvedFamily", resolvedFamily)
        writer.end()
    }

    /// The reply as a JSON value (for `--json` and tests).
    public var jsonValue: JSONValue {
        do {
            return try JSONParser.parse(jsonBytes)
        } catch {
            preconditionFailure("CandidateList.jsonBytes wrote invalid JSON: \(error)")
        }
    }

    /// Reads a `Candidates` reply.
    ///
    /// - Returns: `nil` when a required member is missing or of the wrong type.
    public init?(parameters object: [String: JSONValue]) {
        guard let family = object["resolvedFamily"]?.stringValue,
            let requested = object["requestedWeight"]?.intValue,
            let effective = object["effectiveWeight"]?.intValue,
            let elements = object["candidates"]?.arrayValue
        else { return nil }
        var candidates: [Candidate] = []
        for element in elements {
            guard let face = element["face"].flatMap(FaceRecord.init(jsonValue:)) else { return nil }
            candidates.append(
                Candidate(
                    face: face, variations: VariationSetting.settings(from: element["variations"], axes: face.axes),
                    synthesis: Synthesis(jsonValue: element["synthesis"]),
                    weight: element["weight"]?.intValue ?? face.weight, exact: element["exact"]?.boolValue ?? false))
        }
        self.init(
            resolvedFamily: family, requestedWeight: requested, effectiveWeight: effective, candidates: candidates)
    }
}

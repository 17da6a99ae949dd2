import FontRegCore
import FontRegJSON

/// The answer of `ResolveText` and of `fontresolve resolve --text … --json` (issue 12).
///
/// The same members on the wire and on the command line, whichever backend answered.
public struct TextReply: Sendable, Hashable, Codable {
    /// One run of the text and the face that draws it.
    public struct Run: Sendable, Hashable, Codable {
        /// The run's text.
        public var text: String
        /// The start offset in UTF-8 bytes.
        public var start: Int
        /// The end offset (exclusive) in UTF-8 bytes.
        public var end: Int
        /// The start offset in UTF-16 code units.
        public var startUTF16: Int
        /// The end offset (exclusive) in UTF-16 code units.
        public var endUTF16: Int
        /// The face's PostScript name.
        public var postscriptName: String
        /// The font file.
        public var file: String
        /// The face index in the file (FreeType's, with the named instance in the high bits).
        public var index: Int
        /// The weight drawn.
        public var weight: Int
        /// Whether the face is italic.
        public var italic: Bool
        /// The axis values to set on a variable face.
        public var variations: [String: Double]
        /// What the renderer must fake.
        public var synthesis: Synthesis
        /// Whether the face is of another family than the first asked.
        public var fallback: Bool
        /// Why the run got this face, in words.
        public var reason: String
        /// The resolver's steps in that family, in words; only when asked for (`explain`).
        public var trace: [String]?
    }

    /// The runs in text order.
    public var runs: [Run]
    /// The code points no registered face covers.
    public var missing: [Int]
    /// The Han language assumed when none was given and the text has Han.
    public var assumedLanguage: String?

    /// The reply for a resolution.
    ///
    /// - Parameters:
    ///   - resolution: the text resolver's answer.
    ///   - explain: whether each run carries the resolver's steps.
    public init(_ resolution: TextResolution, explain: Bool = false) {
        runs = resolution.runs.map { run in
            let answer = run.resolution
            return Run(
                text: run.text, start: run.start, end: run.end, startUTF16: run.startUTF16, endUTF16: run.endUTF16,
                postscriptName: answer.face.postscriptName, file: answer.face.file, index: answer.face.freetypeIndex,
                weight: answer.weight, italic: answer.face.italic,
                variations: Dictionary(answer.variations.map { ($0.tag, $0.value) }) { first, _ in first },
                synthesis: answer.synthesis, fallback: run.fallback, reason: run.reason,
                trace: explain ? answer.trace : nil)
        }
        missing = resolution.missing.map { Int($0) }
        assumedLanguage = resolution.assumedLanguage
    }

    /// The reply's members, as the daemon sends them: built directly, without `JSONEncoder`.
    package var parameters: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "runs": .array(runs.map(\.jsonValue)), "missing": .array(missing.map { .int($0) }),
        ]
        if let assumedLanguage { members["assumedLanguage"] = .string(assumedLanguage) }
        return members
    }

    /// Reads a reply from its members; `nil` when they are not a text reply.
    package init?(parameters: [String: JSONValue]) {
        guard let runs = parameters["runs"]?.arrayValue, let missing = parameters["missing"]?.arrayValue else {
            return nil
        }
        var decoded: [Run] = []
        decoded.reserveCapacity(runs.count)
        for value in runs {
            guard let run = Run(jsonValue: value) else { return nil }
            decoded.append(run)
        }
        let points = missing.compactMap(\.intValue)
        guard points.count == missing.count else { return nil }
        self.runs = decoded
        self.missing = points
        self.assumedLanguage = parameters["assumedLanguage"]?.stringValue
    }
}

extension TextReply.Run {
    /// The run as the wire carries it (the `Codable` members; `trace` only when present).
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "text": .string(text), "start": .int(start), "end": .int(end), "startUTF16": .int(startUTF16),
            "endUTF16": .int(endUTF16), "postscriptName": .string(postscriptName), "file": .string(file),
            "index": .int(index), "weight": .int(weight), "italic": .bool(italic),
            "variations": .object(variations.mapValues { .double($0) }),
            "synthesis": .object(
                ["bold": .bool(synthesis.bold), "oblique": .bool(synthesis.oblique)].merging(
                    synthesis.obliqueAngle.map { ["obliqueAngle": JSONValue.double($0)] } ?? [:]
                ) { first, _ in first }),
            "fallback": .bool(fallback), "reason": .string(reason),
        ]
        if let trace { members["trace"] = .array(trace.map { .string($0) }) }
        return .object(members)
    }

    /// Reads a run from its JSON object; `nil` when a member is missing or of the wrong type.
    init?(jsonValue value: JSONValue) {
        guard let o = value.objectValue, let text = o["text"]?.stringValue, let start = o["start"]?.intValue,
            let end = o["end"]?.intValue, let startUTF16 = o["startUTF16"]?.intValue,
            let endUTF16 = o["endUTF16"]?.intValue, let postscriptName = o["postscriptName"]?.stringValue,
            let file = o["file"]?.stringValue, let index = o["index"]?.intValue, let weight = o["weight"]?.intValue,
            let italic = o["italic"]?.boolValue, let variations = o["variations"]?.objectValue,
            let fallback = o["fallback"]?.boolValue, let reason = o["reason"]?.stringValue
        else { return nil }
        self.init(
            text: text, start: start, end: end, startUTF16: startUTF16, endUTF16: endUTF16,
            postscriptName: postscriptName, file: file, index: index, weight: weight, italic: italic,
            variations: variations.compactMapValues(\.doubleValue), synthesis: Synthesis(jsonValue: o["synthesis"]),
            fallback: fallback, reason: reason, trace: o["trace"]?.arrayValue?.compactMap(\.stringValue))
    }
}

extension TextQuery {
    /// The parameters of `ResolveText` for this query and text.
    func varlinkParameters(text: String, explain: Bool = false) -> [String: JSONValue] {
        var parameters = style.varlinkParameters
        parameters["family"] = nil
        parameters["families"] = .array(families.map { .string($0) })
        parameters["text"] = .string(text)
        if let language { parameters["language"] = .string(language) }
        if explain { parameters["explain"] = .bool(true) }
        return parameters
    }
}

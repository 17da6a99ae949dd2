import FontRegCore
import FontRegJSON

/// The answer of `ResolveText` and of `fontresolve resolve --text … --json` (issue 12).
///
/// The same members on the wire and on the command line, whichever backend answered.
public struct TextReply: Sendable, Hashable, Codable {
    /// One run of the text and the face that draws it.
    ///
    /// The face's members live in one shared box, copied when a run is changed: a compact reply
    /// gives hundreds of runs the same few faces, and copying each member per run was most of
    /// what a client did with a reply (issue 29 item 4). The text is cut from the whole text
    /// when read, for a run read from a compact reply.
    public struct Run: Sendable, Hashable, Codable {
        /// The run's text.
        public var text: String {
            get { storedText.text }
            set { storedText = RunText(newValue) }
        }
        /// The start offset in UTF-8 bytes.
        public var start: Int
        /// The end offset (exclusive) in UTF-8 bytes.
        public var end: Int
        /// The start offset in UTF-16 code units.
        public var startUTF16: Int
        /// The end offset (exclusive) in UTF-16 code units.
        public var endUTF16: Int
        /// The face's PostScript name.
        public var postscriptName: String {
            get { face.value.postscriptName }
            set { changeFace { $0.postscriptName = newValue } }
        }
        /// The font file.
        public var file: String {
            get { face.value.file }
            set { changeFace { $0.file = newValue } }
        }
        /// The face index in the file (FreeType's, with the named instance in the high bits).
        public var index: Int {
            get { face.value.index }
            set { changeFace { $0.index = newValue } }
        }
        /// The weight drawn.
        public var weight: Int {
            get { face.value.weight }
            set { changeFace { $0.weight = newValue } }
        }
        /// Whether the face is italic.
        public var italic: Bool {
            get { face.value.italic }
            set { changeFace { $0.italic = newValue } }
        }
        /// The axis values to set on a variable face.
        public var variations: [String: Double] {
            get { face.value.variations }
            set { changeFace { $0.variations = newValue } }
        }
        /// What the renderer must fake.
        public var synthesis: Synthesis {
            get { face.value.synthesis }
            set { changeFace { $0.synthesis = newValue } }
        }
        /// Whether the face is of another family than the first asked.
        public var fallback: Bool {
            get { face.value.fallback }
            set { changeFace { $0.fallback = newValue } }
        }
        /// Why the run got this face, in words.
        public var reason: String {
            get { face.value.reason }
            set { changeFace { $0.reason = newValue } }
        }
        /// The resolver's steps in that family, in words; only when asked for (`explain`).
        public var trace: [String]? {
            get { face.value.trace }
            set { changeFace { $0.trace = newValue } }
        }

        private var storedText: RunText
        private var face: FaceBox

        /// Creates a run.
        public init(
            text: String, start: Int, end: Int, startUTF16: Int, endUTF16: Int, postscriptName: String, file: String,
            index: Int, weight: Int, italic: Bool, variations: [String: Double], synthesis: Synthesis, fallback: Bool,
            reason: String, trace: [String]?
        ) {
            self.storedText = RunText(text)
            self.start = start
            self.end = end
            self.startUTF16 = startUTF16
            self.endUTF16 = endUTF16
            self.face = FaceBox(
                Face(
                    postscriptName: postscriptName, file: file, index: index, weight: weight, italic: italic,
                    variations: variations, synthesis: synthesis, fallback: fallback, reason: reason, trace: trace))
        }

        /// A run of `face`'s box (shared, not copied) at these offsets, its text cut from `whole` when read.
        init(sharing face: Run, whole: String, start: Int, end: Int, startUTF16: Int, endUTF16: Int) {
            self.storedText = RunText(whole, utf8: start..<end)
            self.start = start
            self.end = end
            self.startUTF16 = startUTF16
            self.endUTF16 = endUTF16
            self.face = face.face
        }

        private mutating func changeFace(_ change: (inout Face) -> Void) {
            var value = face.value
            change(&value)
            face = FaceBox(value)
        }

        /// Two runs are equal when they cover the same stretch with the same face and text; a shared
        /// face box compares by identity first.
        public static func == (lhs: Run, rhs: Run) -> Bool {
            lhs.start == rhs.start && lhs.end == rhs.end && lhs.startUTF16 == rhs.startUTF16
                && lhs.endUTF16 == rhs.endUTF16 && (lhs.face === rhs.face || lhs.face.value == rhs.face.value)
                && lhs.text == rhs.text
        }

        /// Hashes the members `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(text)
            hasher.combine(start)
            hasher.combine(end)
            hasher.combine(startUTF16)
            hasher.combine(endUTF16)
            hasher.combine(face.value)
        }

        private enum CodingKeys: String, CodingKey {
            case text, start, end, startUTF16, endUTF16, postscriptName, file, index, weight, italic, variations
            case synthesis, fallback, reason, trace
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                text: try c.decode(String.self, forKey: .text), start: try c.decode(Int.self, forKey: .start),
                end: try c.decode(Int.self, forKey: .end), startUTF16: try c.decode(Int.self, forKey: .startUTF16),
                endUTF16: try c.decode(Int.self, forKey: .endUTF16),
                postscriptName: try c.decode(String.self, forKey: .postscriptName),
                file: try c.decode(String.self, forKey: .file), index: try c.decode(Int.self, forKey: .index),
                weight: try c.decode(Int.self, forKey: .weight), italic: try c.decode(Bool.self, forKey: .italic),
                variations: try c.decode([String: Double].self, forKey: .variations),
                synthesis: try c.decode(Synthesis.self, forKey: .synthesis),
                fallback: try c.decode(Bool.self, forKey: .fallback),
                reason: try c.decode(String.self, forKey: .reason),
                trace: try c.decodeIfPresent([String].self, forKey: .trace))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            try c.encode(start, forKey: .start)
            try c.encode(end, forKey: .end)
            try c.encode(startUTF16, forKey: .startUTF16)
            try c.encode(endUTF16, forKey: .endUTF16)
            try c.encode(postscriptName, forKey: .postscriptName)
            try c.encode(file, forKey: .file)
            try c.encode(index, forKey: .index)
            try c.encode(weight, forKey: .weight)
            try c.encode(italic, forKey: .italic)
            try c.encode(variations, forKey: .variations)
            try c.encode(synthesis, forKey: .synthesis)
            try c.encode(fallback, forKey: .fallback)
            try c.encode(reason, forKey: .reason)
            try c.encodeIfPresent(trace, forKey: .trace)
        }

        /// The face's members of a run.
        fileprivate struct Face: Hashable {
            var postscriptName: String
            var file: String
            var index: Int
            var weight: Int
            var italic: Bool
            var variations: [String: Double]
            var synthesis: Synthesis
            var fallback: Bool
            var reason: String
            var trace: [String]?
        }

        /// A face's members, shared by the runs of that face; never changed (a change makes a new box).
        private final class FaceBox: Sendable {
            let value: Face

            init(_ value: Face) {
                self.value = value
            }
        }
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

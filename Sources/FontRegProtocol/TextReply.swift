import FontRegCore
import FontRegJSON
import FontRegSystem
import Varlink

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

    /// The reply's members, as the daemon sends them.
    package var parameters: [String: JSONValue] {
        guard let tree = try? JSONValue(encoding: self), let object = tree.objectValue else {
            preconditionFailure("a text reply always encodes to a JSON object")
        }
        return object
    }

    /// Reads a reply from its members; `nil` when they are not a text reply.
    package init?(parameters: [String: JSONValue]) {
        guard let value = try? JSONValue.object(parameters).decode(TextReply.self) else { return nil }
        self = value
    }
}

extension TextQuery {
    /// The parameters of `ResolveText` for this query and text.
    package func varlinkParameters(text: String, explain: Bool = false) -> [String: JSONValue] {
        var parameters = style.varlinkParameters
        parameters["family"] = nil
        parameters["families"] = .array(families.map { .string($0) })
        parameters["text"] = .string(text)
        if let language { parameters["language"] = .string(language) }
        if explain { parameters["explain"] = .bool(true) }
        return parameters
    }
}

/// A stretch of text drawn with one face: where it lies in the text and which face draws it.
public struct TextRun: Sendable, Hashable {
    /// The run's text (whole grapheme clusters).
    ///
    /// A resolver's run keeps the whole text and cuts its stretch when this is read (issue 29
    /// item 4: making a string per run was a tenth of a call, and the daemon's compact reply
    /// never reads it); a run made with a text of its own keeps that.
    public var text: String {
        get { storedText.text }
        set { storedText = RunText(newValue) }
    }
    private var storedText: RunText
    /// The start offset in UTF-8 bytes.
    public var start: Int
    /// The end offset (exclusive) in UTF-8 bytes.
    public var end: Int
    /// The start offset in UTF-16 code units.
    public var startUTF16: Int
    /// The end offset (exclusive) in UTF-16 code units.
    public var endUTF16: Int
    /// The face, the effective weight, the variations and the synthesis, as a resolve answers them.
    public var resolution: Resolution {
        get { shared.value }
        set { shared = SharedResolution(newValue) }
    }
    /// The resolution, shared by every run of its face: a run copies one reference, not the
    /// answer's many members (issue 29: a text of 816 runs copied each answer 816 times).
    package private(set) var shared: SharedResolution
    /// Whether the face is not of the first family of the stack.
    public var fallback: Bool
    /// Why the run got this face, in words.
    public var reason: String

    /// Creates a run.
    ///
    /// - Parameters:
    ///   - text: the run's text.
    ///   - start: the UTF-8 start offset.
    ///   - end: the UTF-8 end offset.
    ///   - startUTF16: the UTF-16 start offset.
    ///   - endUTF16: the UTF-16 end offset.
    ///   - resolution: the resolve answer for the run's family.
    ///   - fallback: whether the face is of another family than the first asked.
    ///   - reason: why, in words.
    public init(
        text: String, start: Int, end: Int, startUTF16: Int, endUTF16: Int, resolution: Resolution,
        fallback: Bool, reason: String
    ) {
        self.storedText = RunText(text)
        self.start = start
        self.end = end
        self.startUTF16 = startUTF16
        self.endUTF16 = endUTF16
        self.shared = SharedResolution(resolution)
        self.fallback = fallback
        self.reason = reason
    }

    /// Creates a run whose resolution is shared with other runs of its face (its text is set
    /// with ``cutText(from:)`` once its end is known).
    init(
        start: Int, end: Int, startUTF16: Int, endUTF16: Int, shared: SharedResolution, fallback: Bool,
        reason: String
    ) {
        self.storedText = RunText("")
        self.start = start
        self.end = end
        self.startUTF16 = startUTF16
        self.endUTF16 = endUTF16
        self.shared = shared
        self.fallback = fallback
        self.reason = reason
    }
}

extension TextRun {
    /// Sets the text to the stretch of `whole` between the run's UTF-8 offsets, cut when read.
    /// The offsets must lie on `whole`'s scalar boundaries.
    mutating func cutText(from whole: String) {
        storedText = RunText(whole, utf8: start..<end)
    }

    /// Two runs are equal when they cover the same stretch, in the same face, for the same reason,
    /// with the same text; how the text is stored does not count.
    public static func == (lhs: TextRun, rhs: TextRun) -> Bool {
        lhs.start == rhs.start && lhs.end == rhs.end && lhs.startUTF16 == rhs.startUTF16
            && lhs.endUTF16 == rhs.endUTF16 && lhs.fallback == rhs.fallback && lhs.reason == rhs.reason
            && lhs.shared == rhs.shared && lhs.text == rhs.text
    }

    /// Hashes the members `==` compares, the text by its characters.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(startUTF16)
        hasher.combine(endUTF16)
        hasher.combine(shared)
        hasher.combine(fallback)
        hasher.combine(reason)
    }
}

/// A resolve answer kept once and referred to by every run and choice of its face; equal and
/// hashed by its value.
package final class SharedResolution: Sendable, Hashable {
    /// The answer.
    package let value: Resolution

    init(_ value: Resolution) {
        self.value = value
    }

    package static func == (lhs: SharedResolution, rhs: SharedResolution) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

/// The answer for a text: its runs, the code points nothing registered covers, and the Han language assumed.
public struct TextResolution: Sendable, Hashable {
    /// The runs in text order; together they cover the whole text.
    public var runs: [TextRun]
    /// The code points no registered face covers, each once, in order of first appearance.
    public var missing: [UInt32]
    /// The language assumed for Han characters when the query gave none (`nil` when given or not needed).
    public var assumedLanguage: String?

    /// Creates an answer.
    ///
    /// - Parameters:
    ///   - runs: the runs.
    ///   - missing: the code points nothing covers.
    ///   - assumedLanguage: the Han language assumed, if any.
    public init(runs: [TextRun], missing: [UInt32], assumedLanguage: String?) {
        self.runs = runs
        self.missing = missing
        self.assumedLanguage = assumedLanguage
    }
}

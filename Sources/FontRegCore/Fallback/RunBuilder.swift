/// Collects clusters into runs, counting UTF-8 and UTF-16 offsets as it goes.
struct RunBuilder {
    /// The family key of the stack's first family: a run of another family is a fallback.
    let firstFamily: FamilyKey?
    private var runs: [TextRun] = []
    private var offset8 = 0
    private var offset16 = 0
    /// The open run's answer; runs of two answers with the same face (file, face index, named
    /// instance) merge.
    private var currentAnswer: SharedResolution?
    /// Whether two answers met have the same face, for the last pairs compared (runs alternate
    /// between a few answers: comparing file paths per run cost more than the rest of opening it).
    private var sameFace: [(ObjectIdentifier, ObjectIdentifier, Bool)] = []
    /// Whether a run is open.
    var hasRun: Bool { !runs.isEmpty }
    /// The open run's face's coverage (with its last range looked up) and colour, kept apart so
    /// the per-cluster check copies no record.
    private var currentProbe = CoverageProbe()
    private(set) var currentIsColor = false
    /// The position in the stack's faces of the open run's face, when it came from there.
    private var currentStackFace: Int?
    /// Families met so far, and whether each is a fallback.
    private var fallbackByFamily: [String: Bool] = [:]
    /// Whether each answer met is a fallback, by identity (hashing a name per run costs more):
    /// every answer asked about is kept by a run, so no identity is reused during the call.
    private var fallbackByAnswer: [ObjectIdentifier: Bool] = [:]
    /// The last answers asked about, looked through before the dictionary (runs alternate
    /// between a few faces: hashing per run cost more than the rest of opening it).
    private var recentAnswers: [(answer: ObjectIdentifier, fallback: Bool)] = []

    /// Starts with no run, with room for `expectedRuns`.
    init(firstFamily: FamilyKey?, expectedRuns: Int = 0) {
        self.firstFamily = firstFamily
        runs.reserveCapacity(expectedRuns)
    }

    /// Whether the open run's face maps every scalar a renderer draws (`false` without a run).
    @inline(__always)
    mutating func currentCovers<S: Sequence<Unicode.Scalar>>(_ scalars: S, _ classes: ScalarClasses.Table) -> Bool {
        !runs.isEmpty && currentProbe.covers(scalars, classes)
    }

    /// Adds a cluster of `utf8` bytes and `utf16` code units to the open run (its end is written
    /// when the next run opens or in ``finish(text:)``; its text is cut there from the whole text).
    @inline(__always)
    mutating func extend(utf8: Int, utf16: Int) {
        guard !runs.isEmpty else { return }
        offset8 += utf8
        offset16 += utf16
    }

    /// Whether the open run has the stack's face at `position`.
    @inline(__always)
    func isOpen(stackFace position: Int) -> Bool {
        currentStackFace == position && !runs.isEmpty
    }

    /// Adds a cluster drawn by a face of the stack: extends the open run when it has that face.
    ///
    /// - Parameters:
    ///   - utf8: the cluster's length in UTF-8 bytes.
    ///   - utf16: its length in UTF-16 code units.
    ///   - stackFace: the face's position among the stack's faces.
    ///   - choice: the face and why.
    ///   - probe: the face's coverage probe (its last look-up kept for the run).
    mutating func append(utf8: Int, utf16: Int, stackFace: Int, choice: FallbackChoice, probe: CoverageProbe) {
        if currentStackFace == stackFace, !runs.isEmpty {
            extend(utf8: utf8, utf16: utf16)
            return
        }
        append(utf8: utf8, utf16: utf16, choice: choice, probe: probe)
        currentStackFace = stackFace
    }

    /// Adds a cluster with a chosen face: extends the open run when the face is the same, else opens a run.
    ///
    /// - Parameters:
    ///   - utf8: the cluster's length in UTF-8 bytes.
    ///   - utf16: its length in UTF-16 code units.
    ///   - choice: the face and why.
    ///   - probe: the face's coverage probe, when the caller has one (else one is made).
    mutating func append(utf8: Int, utf16: Int, choice: FallbackChoice, probe: CoverageProbe? = nil) {
        let shared = choice.shared
        if let currentAnswer, !runs.isEmpty, isSameFace(currentAnswer, shared) {
            extend(utf8: utf8, utf16: utf16)
            return
        }
        closeRun()
        runs.append(
            TextRun(
                start: offset8, end: offset8 + utf8, startUTF16: offset16, endUTF16: offset16 + utf16,
                shared: shared, fallback: isFallback(shared), reason: choice.reason))
        offset8 += utf8
        offset16 += utf16
        currentAnswer = shared
        currentStackFace = nil
        // Read through the shared answer: binding the face would copy the whole record.
        currentProbe = probe ?? CoverageProbe(shared.value.face.coverage)
        currentIsColor = shared.value.face.isColor
    }

    /// Whether two answers have the same face (file, face index, named instance), remembered for recent pairs.
    private mutating func isSameFace(_ a: SharedResolution, _ b: SharedResolution) -> Bool {
        if a === b { return true }
        let (x, y) = (ObjectIdentifier(a), ObjectIdentifier(b))
        for (first, second, same) in sameFace where first == x && second == y { return same }
        let same =
            a.value.face.index == b.value.face.index && a.value.face.instance == b.value.face.instance
            && a.value.face.file == b.value.face.file
        if sameFace.count < 8 { sameFace.append((x, y, same)) }
        return same
    }

    /// Writes the open run's end.
    private mutating func closeRun() {
        guard !runs.isEmpty else { return }
        runs[runs.count - 1].end = offset8
        runs[runs.count - 1].endUTF16 = offset16
    }

    /// The runs, each with its text the stretch of `text` between its offsets (cluster
    /// boundaries), cut when read; set in place (a run holds a whole resolve answer: copying it
    /// costs more than the text).
    mutating func finish(text: String) -> [TextRun] {
        closeRun()
        for position in runs.indices { runs[position].cutText(from: text) }
        return runs
    }

    /// Whether a family is not the stack's first, remembered by name (normalising a name costs
    /// more than the rest of a run).
    private mutating func isFallback(_ shared: SharedResolution) -> Bool {
        let identity = ObjectIdentifier(shared)
        for recent in recentAnswers where recent.answer == identity { return recent.fallback }
        if let known = fallbackByAnswer[identity] { return known }
        let family = shared.value.face.family
        let fallback: Bool
        if let known = fallbackByFamily[family] {
            fallback = known
        } else {
            fallback = FamilyKey(family) != firstFamily
            fallbackByFamily[family] = fallback
        }
        fallbackByAnswer[identity] = fallback
        if recentAnswers.count < 4 { recentAnswers.append((identity, fallback)) }
        return fallback
    }
}

/// Collects clusters into runs, counting UTF-8 and UTF-16 offsets as it goes.
struct RunBuilder {
    /// The family key of the stack's first family: a run of another family is a fallback.
    let firstFamily: FamilyKey?
    private var runs: [TextRun] = []
    private var offset8 = 0
    private var offset16 = 0
    /// The open run's face, as what tells faces apart (file, face index, named instance): a
    /// whole record costs a retain of each of its many members per run.
    private var currentFace: (file: String, index: Int, instance: Int?)?
    /// Whether a run is open.
    var hasRun: Bool { !runs.isEmpty }
    /// The open run's face's coverage (with its last range looked up) and colour, kept apart so
    /// the per-cluster check copies no record.
    private var currentProbe: CoverageProbe?
    private(set) var currentIsColor = false
    /// The position in the stack's faces of the open run's face, when it came from there.
    private var currentStackFace: Int?
    /// Families met so far, and whether each is a fallback.
    private var fallbackByFamily: [String: Bool] = [:]
    /// Whether each answer met is a fallback, by identity (hashing a name per run costs more):
    /// every answer asked about is kept by a run, so no identity is reused during the call.
    private var fallbackByAnswer: [ObjectIdentifier: Bool] = [:]

    /// Starts with no run.
    init(firstFamily: FamilyKey?) {
        self.firstFamily = firstFamily
    }

    /// Whether the open run's face maps every scalar a renderer draws (`false` without a run).
    mutating func currentCovers<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> Bool {
        guard currentProbe != nil else { return false }
        return currentProbe!.covers(scalars)
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
    mutating func append(utf8: Int, utf16: Int, stackFace: Int, choice: FallbackChoice) {
        if currentStackFace == stackFace, !runs.isEmpty {
            extend(utf8: utf8, utf16: utf16)
            return
        }
        append(utf8: utf8, utf16: utf16, choice: choice)
        currentStackFace = stackFace
    }

    /// Adds a cluster with a chosen face: extends the open run when the face is the same, else opens a run.
    mutating func append(utf8: Int, utf16: Int, choice: FallbackChoice) {
        // Read through the shared answer: binding the face would copy the whole record.
        let shared = choice.shared
        if let currentFace, currentFace.index == shared.value.face.index,
            currentFace.instance == shared.value.face.instance, currentFace.file == shared.value.face.file,
            !runs.isEmpty
        {
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
        currentFace = (shared.value.face.file, shared.value.face.index, shared.value.face.instance)
        currentStackFace = nil
        currentProbe = CoverageProbe(shared.value.face.coverage)
        currentIsColor = shared.value.face.isColor
    }

    /// Writes the open run's end.
    private mutating func closeRun() {
        guard !runs.isEmpty else { return }
        runs[runs.count - 1].end = offset8
        runs[runs.count - 1].endUTF16 = offset16
    }

    /// The runs, each with its text cut from `text` by its UTF-8 offsets (cluster boundaries),
    /// set in place (a run holds a whole resolve answer: copying it costs more than the text).
    mutating func finish(text: String) -> [TextRun] {
        closeRun()
        let utf8 = text.utf8
        for position in runs.indices {
            let from = utf8.index(utf8.startIndex, offsetBy: runs[position].start)
            let to = utf8.index(from, offsetBy: runs[position].end - runs[position].start)
            runs[position].text = String(text[from..<to])
        }
        return runs
    }

    /// Whether a family is not the stack's first, remembered by name (normalising a name costs
    /// more than the rest of a run).
    private mutating func isFallback(_ shared: SharedResolution) -> Bool {
        let identity = ObjectIdentifier(shared)
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
        return fallback
    }
}

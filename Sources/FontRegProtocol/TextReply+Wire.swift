import FontRegCore
import FontRegJSON

// Issue 29: `ResolveText`'s reply written member by member (no tree per run), and its compact form,
// where each face is written once in `faces` and the runs are `spans` that name it by position.

extension TextReply {
    /// Writes the `ResolveText` reply for a resolution as a JSON object, member by member.
    ///
    /// The full form is byte for byte what ``parameters`` gives through ``JSONBytesWriter/write(_:)``.
    /// The compact form (`compact: true` on the wire) leaves `runs` empty and gives `faces`, each
    /// distinct face description (face, weight, variations, synthesis, fallback, reason, trace)
    /// once, and `spans`, one flat array of integers, five per run in text order: `face` (a
    /// position in `faces`), `start`, `end`, `startUTF16`, `endUTF16` (``spanStride``); a span's
    /// text is the request's text between its UTF-8 offsets.
    ///
    /// - Parameters:
    ///   - resolution: the text resolver's answer.
    ///   - explain: whether each run (or face) carries the resolver's steps.
    ///   - compact: whether to write the compact form.
    ///   - writer: where the object goes.
    package static func write(
        _ resolution: TextResolution, explain: Bool, compact: Bool, to writer: inout JSONBytesWriter
    ) {
        writer.begin()
        if let assumed = resolution.assumedLanguage { writer.member("assumedLanguage", assumed) }
        guard compact else {
            writer.member("missing") { $0.array(resolution.missing) { w, point in w.element(Int(point)) } }
            writer.member("runs") { w in
                w.array(resolution.runs) { w, run in writeRun(run, explain: explain, to: &w) }
            }
            writer.end()
            return
        }
        var byAnswer = AnswerPositions()
        var byValue: [FaceKey: Int] = [:]
        var faces: [TextRun] = []
        let runs = resolution.runs
        // One flat array of integers, five per run: a client reads it without a dictionary per span.
        // (Written with one append per integer, and each run read in place: no array or run copy per run.)
        var flat: [Int] = []
        flat.reserveCapacity(runs.count * TextReply.spanStride)
        for index in runs.indices {
            let position = facePosition(of: index, in: runs, byAnswer: &byAnswer, byValue: &byValue, faces: &faces)
            flat.append(position)
            flat.append(runs[index].start)
            flat.append(runs[index].end)
            flat.append(runs[index].startUTF16)
            flat.append(runs[index].endUTF16)
        }
        writer.member("faces") { w in w.array(faces) { w, run in writeFace(run, explain: explain, to: &w) } }
        writer.member("missing") { $0.array(resolution.missing) { w, point in w.element(Int(point)) } }
        writer.member("runs") { $0.array([TextRun]()) { _, _ in } }
        writer.member("spans", integers: flat)
        writer.end()
    }

    /// The position in `faces` of the face description of `runs[index]` (read in place, not
    /// copied), appended when it is new.
    ///
    /// Runs of one choice share its answer: by that identity first (one answer, one reason),
    /// then by value, so equal answers of different choices are one face too.
    private static func facePosition(
        of index: Int, in runs: [TextRun], byAnswer: inout AnswerPositions, byValue: inout [FaceKey: Int],
        faces: inout [TextRun]
    ) -> Int {
        let identity = ObjectIdentifier(runs[index].shared)
        // (Checked: a caller may have changed a run's reason; equal strings of one storage compare at once.)
        if let known = byAnswer.position(of: identity), faces[known].reason == runs[index].reason,
            faces[known].fallback == runs[index].fallback
        {
            return known
        }
        let run = runs[index]
        let key = FaceKey(run)
        let position: Int
        if let known = byValue[key] {
            position = known
        } else {
            position = faces.count
            byValue[key] = position
            faces.append(run)
        }
        byAnswer.set(position, for: identity)
        return position
    }

    /// The face position of each answer met, by identity: the last few looked through first
    /// (runs alternate between a few answers: hashing per run was a twentieth of the reply).
    private struct AnswerPositions {
        private var all: [ObjectIdentifier: Int] = [:]
        private var recent: [(answer: ObjectIdentifier, position: Int)] = []
        private var next = 0

        mutating func position(of answer: ObjectIdentifier) -> Int? {
            for entry in recent where entry.answer == answer { return entry.position }
            guard let position = all[answer] else { return nil }
            remember(answer, position)
            return position
        }

        mutating func set(_ position: Int, for answer: ObjectIdentifier) {
            all[answer] = position
            remember(answer, position)
        }

        /// Keeps `answer` among the last four, replacing the oldest.
        private mutating func remember(_ answer: ObjectIdentifier, _ position: Int) {
            if let slot = recent.firstIndex(where: { $0.answer == answer }) {
                recent[slot].position = position
            } else if recent.count < 4 {
                recent.append((answer, position))
            } else {
                recent[next] = (answer, position)
                next = (next + 1) % 4
            }
        }
    }

    /// One run of the full form: the members of ``Run`` in sorted order.
    private static func writeRun(_ run: TextRun, explain: Bool, to w: inout JSONBytesWriter) {
        let answer = run.resolution
        w.begin()
        w.member("end", run.end)
        w.member("endUTF16", run.endUTF16)
        w.member("fallback", run.fallback)
        w.member("file", answer.face.file)
        w.member("index", answer.face.freetypeIndex)
        w.member("italic", answer.face.italic)
        w.member("postscriptName", answer.face.postscriptName)
        w.member("reason", run.reason)
        w.member("start", run.start)
        w.member("startUTF16", run.startUTF16)
        writeSynthesis(answer.synthesis, to: &w)
        w.member("text", run.text)
        if explain { w.member("trace", answer.trace) }
        writeVariations(answer.variations, to: &w)
        w.member("weight", answer.weight)
        w.end()
    }

    /// One face of the compact form: a run's members without its text and offsets.
    private static func writeFace(_ run: TextRun, explain: Bool, to w: inout JSONBytesWriter) {
        let answer = run.resolution
        w.begin()
        w.member("fallback", run.fallback)
        w.member("file", answer.face.file)
        w.member("index", answer.face.freetypeIndex)
        w.member("italic", answer.face.italic)
        w.member("postscriptName", answer.face.postscriptName)
        w.member("reason", run.reason)
        writeSynthesis(answer.synthesis, to: &w)
        if explain { w.member("trace", answer.trace) }
        writeVariations(answer.variations, to: &w)
        w.member("weight", answer.weight)
        w.end()
    }

    private static func writeSynthesis(_ synthesis: Synthesis, to w: inout JSONBytesWriter) {
        w.member("synthesis") { w in
            w.begin()
            w.member("bold", synthesis.bold)
            w.member("oblique", synthesis.oblique)
            if let angle = synthesis.obliqueAngle { w.member("obliqueAngle", angle) }
            w.end()
        }
    }

    /// The axis values as an object, sorted by tag; the first value of a repeated tag wins (as in ``init(_:explain:)``).
    private static func writeVariations(_ variations: [VariationSetting], to w: inout JSONBytesWriter) {
        w.member("variations") { w in
            w.begin()
            var seen = Set<String>()
            for setting in variations.filter({ seen.insert($0.tag).inserted }).sorted(by: { $0.tag < $1.tag }) {
                w.key(setting.tag)
                w.write(.double(setting.value))
            }
            w.end()
        }
    }

    /// What tells two runs' face descriptions apart in the compact form.
    private struct FaceKey: Hashable {
        let file: String
        let index: Int
        let weight: Int
        let variations: [VariationSetting]
        let synthesis: Synthesis
        let fallback: Bool
        let reason: String

        init(_ run: TextRun) {
            let answer = run.resolution
            file = answer.face.file
            index = answer.face.freetypeIndex
            weight = answer.weight
            variations = answer.variations
            synthesis = answer.synthesis
            fallback = run.fallback
            reason = run.reason
        }
    }
}

extension TextReply {
    /// How many integers one span takes in the compact reply's `spans`: face, start, end,
    /// startUTF16, endUTF16.
    package static let spanStride = 5

    /// Reads a reply in either form; `text` is the text asked, which gives the compact form's
    /// spans their text. `nil` when the members are not a text reply, `spans` is not a whole
    /// number of five-integer spans, or a span does not lie on the text's character boundaries
    /// or names no face.
    package init?(parameters: [String: JSONValue], text: String) {
        guard let faces = parameters["faces"]?.arrayValue, let spans = parameters["spans"]?.arrayValue else {
            self.init(parameters: parameters)
            return
        }
        guard let points = parameters["missing"]?.arrayValue else { return nil }
        let missing = points.compactMap(\.intValue)
        guard missing.count == points.count else { return nil }
        var described: [Run] = []
        described.reserveCapacity(faces.count)
        for value in faces {
            guard let face = Run(face: value) else { return nil }
            described.append(face)
        }
        let integers = spans.compactMap(\.intValue)
        guard integers.count == spans.count else { return nil }
        self.init(
            faces: described, spans: integers, missing: missing,
            assumedLanguage: parameters["assumedLanguage"]?.stringValue, text: text)
    }

    /// The reply of a compact form read: each span a copy of the face it names, with the text
    /// between its UTF-8 offsets; `nil` when `spans` is not a whole number of spans, or a span
    /// names no face or does not start and end on the text's scalar boundaries.
    init?(faces: [Run], spans: [Int], missing: [Int], assumedLanguage: String?, text: String) {
        guard spans.count % Self.spanStride == 0 else { return nil }
        var text = text
        text.makeContiguousUTF8()
        // Offsets checked on the UTF-8 bytes: no string index walked to, no scalar view per span.
        let read = text.utf8.withContiguousStorageIfAvailable { utf8 -> [Run]? in
            func onBoundary(_ offset: Int) -> Bool { offset == utf8.count || utf8[offset] & 0xC0 != 0x80 }
            var runs: [Run] = []
            runs.reserveCapacity(spans.count / Self.spanStride)
            for base in stride(from: 0, to: spans.count, by: Self.spanStride) {
                let (face, start, end) = (spans[base], spans[base + 1], spans[base + 2])
                guard faces.indices.contains(face), 0 <= start, start <= end, end <= utf8.count, onBoundary(start),
                    onBoundary(end)
                else { return nil }
                runs.append(
                    Run(
                        sharing: faces[face], whole: text, start: start, end: end, startUTF16: spans[base + 3],
                        endUTF16: spans[base + 4]))
            }
            return runs
        }
        guard let runs = read ?? nil else { return nil }
        self.runs = runs
        self.missing = missing
        self.assumedLanguage = assumedLanguage
    }
}

extension TextReply.Run {
    /// A face of the compact reply (a run's members without its text and offsets), read as a run
    /// with an empty text at offset 0; `nil` when it is not an object with a face's members.
    init?(face value: JSONValue) {
        guard var object = value.objectValue else { return nil }
        for name in ["start", "end", "startUTF16", "endUTF16"] { object[name] = .int(0) }
        object["text"] = .string("")
        self.init(jsonValue: .object(object))
    }
}

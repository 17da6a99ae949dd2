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
        // Runs of one choice share its answer: by that identity first (one answer, one reason),
        // then by value, so equal answers of different choices are one face too.
        var byAnswer: [ObjectIdentifier: Int] = [:]
        var byValue: [FaceKey: Int] = [:]
        var faces: [TextRun] = []
        var spans: [Int] = []
        spans.reserveCapacity(resolution.runs.count)
        for run in resolution.runs {
            let identity = ObjectIdentifier(run.shared)
            // (Checked: a caller may have changed a run's reason; equal strings of one storage compare at once.)
            if let known = byAnswer[identity], faces[known].reason == run.reason, faces[known].fallback == run.fallback
            {
                spans.append(known)
                continue
            }
            let key = FaceKey(run)
            let position: Int
            if let known = byValue[key] {
                position = known
            } else {
                position = faces.count
                byValue[key] = position
                faces.append(run)
            }
            byAnswer[identity] = position
            spans.append(position)
        }
        writer.member("faces") { w in w.array(faces) { w, run in writeFace(run, explain: explain, to: &w) } }
        writer.member("missing") { $0.array(resolution.missing) { w, point in w.element(Int(point)) } }
        writer.member("runs") { $0.array([TextRun]()) { _, _ in } }
        // One flat array of integers, five per run: a client reads it without a dictionary per span.
        var flat: [Int] = []
        flat.reserveCapacity(resolution.runs.count * TextReply.spanStride)
        for (face, run) in zip(spans, resolution.runs) {
            flat.append(contentsOf: [face, run.start, run.end, run.startUTF16, run.endUTF16])
        }
        writer.member("spans") { w in w.array(flat) { w, value in w.element(value) } }
        writer.end()
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
        guard var reply = TextReply(parameters: ["runs": .array([]), "missing": parameters["missing"] ?? .null])
        else { return nil }
        var described: [Run] = []
        described.reserveCapacity(faces.count)
        for value in faces {
            // A face is a run without text and offsets: read it as one.
            guard var object = value.objectValue else { return nil }
            for name in ["start", "end", "startUTF16", "endUTF16"] { object[name] = .int(0) }
            object["text"] = .string("")
            guard let face = Run(jsonValue: .object(object)) else { return nil }
            described.append(face)
        }
        let utf8 = text.utf8
        let integers = spans.compactMap(\.intValue)
        guard integers.count == spans.count, integers.count % Self.spanStride == 0 else { return nil }
        reply.runs.reserveCapacity(integers.count / Self.spanStride)
        for base in stride(from: 0, to: integers.count, by: Self.spanStride) {
            let (face, start, end) = (integers[base], integers[base + 1], integers[base + 2])
            let (startUTF16, endUTF16) = (integers[base + 3], integers[base + 4])
            guard described.indices.contains(face), 0 <= start, start <= end, end <= utf8.count else { return nil }
            let from = utf8.index(utf8.startIndex, offsetBy: start)
            let to = utf8.index(from, offsetBy: end - start)
            guard from.samePosition(in: text.unicodeScalars) != nil, to.samePosition(in: text.unicodeScalars) != nil
            else { return nil }
            var run = described[face]
            run.text = String(text[from..<to])
            run.start = start
            run.end = end
            run.startUTF16 = startUTF16
            run.endUTF16 = endUTF16
            reply.runs.append(run)
        }
        reply.assumedLanguage = parameters["assumedLanguage"]?.stringValue
        self = reply
    }
}

extension FontFileReader {
    /// Reads every face of mapped font bytes into a reply: the faces, or why there are none.
    ///
    /// The one judgement of a file's bytes, shared by the in-process scanner and the sandboxed
    /// parser: not a font at all, FreeType's refusal, a file that shrank while it was read, no faces.
    func reply(path: String, bytes: FontBytes) -> ParseReply {
        if let reason = bytes.notAFontReason { return .problem(reason, kind: .notAFont) }
        do {
            let faces = try readFaces(path: path, bytes: bytes)
            if bytes.isDamaged {
                return .problem(
                    "the file shrank while it was read; it is read again at the next scan", kind: .unreadable)
            }
            return faces.isEmpty ? .problem("no faces in this file", kind: .notAFont) : .faces(faces)
        } catch {
            return .problem(error.description, kind: .notAFont)
        }
    }
}

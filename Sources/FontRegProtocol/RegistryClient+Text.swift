import FontRegCore
import FontRegJSON
import Varlink

extension RegistryClient {
    /// Splits a text into runs, each with the face that draws it (`ResolveText`, issue 12).
    ///
    /// - Parameters:
    ///   - text: the text, at most ``TextResolver/maximumTextBytes`` UTF-8 bytes.
    ///   - query: the family stack, style and language.
    ///   - explain: whether each run carries the resolver's steps in its family.
    ///   - statingBoldText: send `boldText` even when it is off, so the caller's Bold Text setting
    ///     does not apply (as for ``resolve(_:statingBoldText:)``).
    ///   - compact: ask for the compact reply (each face once, the runs as spans of the text) and
    ///     expand it here; the answer is the same either way, the compact one is shorter on the wire.
    /// - Returns: the same reply as `fontresolve resolve --text … --json`.
    /// - Throws: ``VarlinkClientError`` for a failed call or an error reply (`TextTooLong` above all).
    public func resolveText(
        _ text: String, _ query: TextQuery, explain: Bool = false, statingBoldText: Bool = false, compact: Bool = true
    ) throws(VarlinkClientError) -> TextReply {
        var request = query.varlinkParameters(text: text, explain: explain)
        if statingBoldText { request["boldText"] = .bool(query.style.boldText) }
        if compact { request["compact"] = .bool(true) }
        setTimeout(queryTimeout)
        // The compact reply is read from its bytes (`TextReplyDecoder`); any other shape as before.
        let reply = try connection.call(
            RegistryInterface.qualified("ResolveText"), request,
            direct: { compact ? TextReplyDecoder.reply(parameters: $0, text: text) : nil },
            general: { TextReply(parameters: $0, text: text) })
        guard let reply else { throw Self.unreadableReply("ResolveText") }
        return reply
    }
}

extension RegistryClient {
    /// What a face does not cover of a text, and the languages it covers (`FaceCoverage`, issue 12).
    ///
    /// - Parameters:
    ///   - postscriptName: the face, by PostScript name (case does not matter).
    ///   - text: the text to check, at most ``TextResolver/maximumTextBytes`` UTF-8 bytes.
    /// - Returns: the same reply as `fontresolve face NAME --covers TEXT --json`.
    /// - Throws: ``VarlinkClientError`` for a failed call or an error reply (`FaceNotFound`, `TextTooLong`).
    public func faceCoverage(postscriptName: String, text: String) throws(VarlinkClientError) -> FaceCoverageReply {
        let parameters = try call("FaceCoverage", ["postscriptName": .string(postscriptName), "text": .string(text)])
        guard let reply = FaceCoverageReply(parameters: parameters) else { throw Self.unreadableReply("FaceCoverage") }
        return reply
    }
}

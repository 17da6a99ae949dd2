import FontRegCore
import FontRegJSON
import FontRegProtocol
import Varlink

extension RegistryService {
    /// The most families one `ResolveText` stack may name.
    static let maximumStackFamilies = 64

    /// `ResolveText` (issue 12): the text's runs, each with its face, and the code points nothing covers.
    ///
    /// The text is bounded (``TextResolver/maximumTextBytes``, `TextTooLong` over it) and so is the
    /// work: one bisection per grapheme cluster once a script's face is known; a character no
    /// family of the stack covers costs O(log n) bisections of the view's coverage index (built
    /// once per generation, off the loops by ``warmViews()``), and a call checks
    /// at most 4,096 faces in registry-wide fallback.
    ///
    /// It answers in the caller's view (issue 15): another user's private fonts and disabled faces
    /// never serve a run, and a query that does not say `boldText` takes the caller's setting.
    /// A text longer than ``largestTextOnLoop`` bytes is answered on the query worker, as a large
    /// `ResolveMany` is, so that it holds up no other connection of the event loop.
    func resolveText(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let allowed = Self.queryParameters.subtracting(["family"]).union([
            "text", "families", "language", "explain", "compact",
        ])
        let reader = try ParameterReader(call, allowed: allowed)
        guard let text = call.parameters["text"]?.stringValue else { throw VarlinkError.invalidParameter("text") }
        let bytes = text.utf8.count
        guard bytes <= TextResolver.maximumTextBytes else {
            throw VarlinkError(
                RegistryInterface.ErrorName.textTooLong,
                ["bytes": .int(bytes), "limit": .int(TextResolver.maximumTextBytes)])
        }
        let families = try reader.stringArray(
            "families", maximumCount: Self.maximumStackFamilies, maximumBytes: Self.maximumNameBytes)
        let language = try reader.optionalString("language", maximumBytes: Self.maximumKeywordBytes)
        let explain = try reader.optionalBool("explain") ?? false
        let compact = try reader.optionalBool("compact") ?? false
        var styleParameters = call.parameters
        for name in ["text", "families", "language", "explain", "compact"] { styleParameters[name] = nil }
        styleParameters["family"] = .string("")
        let style = try Self.query(
            from: ParameterReader(VarlinkCall(method: "", parameters: styleParameters), allowed: Self.queryParameters))
        let view = view(for: peer)
        let query = TextQuery(
            families: families, style: applyingPreferences(style, parameters: call.parameters, uid: peer.uid),
            language: language)
        // The shared plans belong to the whole index; a view of its own keeps its own (with the
        // coverage index of its faces), cached with the view.
        let resolver = TextResolver(resolver: resolver(for: view))
        let plans = view.key.isEmpty ? textPlans : view.textPlans
        guard bytes > Self.largestTextOnLoop else {
            return .encodedReply(
                try Self.textReply(resolver, text, query, plans: plans, explain: explain, compact: compact))
        }
        return .offloaded {
            Result { () throws(VarlinkError) -> [UInt8] in
                try Self.textReply(resolver, text, query, plans: plans, explain: explain, compact: compact)
            }
        }
    }

    /// Texts up to this many UTF-8 bytes are answered on the event loop.
    static let largestTextOnLoop = 4096

    /// The `ResolveText` reply parameters written as a JSON object (in the compact form when
    /// asked: each face once, the runs as spans), or the error to answer.
    private static func textReply(
        _ resolver: TextResolver, _ text: String, _ query: TextQuery, plans: FallbackPlanCache?, explain: Bool,
        compact: Bool
    ) throws(VarlinkError) -> [UInt8] {
        do {
            let resolution = try resolver.resolve(text, query, cache: plans)
            var writer = JSONBytesWriter(into: [])
            writer.output.reserveCapacity(256 + resolution.runs.count * (compact ? 64 : 256))
            TextReply.write(resolution, explain: explain, compact: compact, to: &writer)
            return writer.output
        } catch {
            switch error {
            case .textTooLong(let bytes, let limit):
                throw VarlinkError(
                    RegistryInterface.ErrorName.textTooLong, ["bytes": .int(bytes), "limit": .int(limit)])
            case .emptyStack: throw VarlinkError.invalidParameter("families")
            case .resolve(let inner): throw Self.varlinkError(inner)
            }
        }
    }
}

extension RegistryService {
    /// `FaceCoverage` (issue 12): what a face does not map of a text, and its languages.
    func faceCoverage(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> [String: JSONValue] {
        let reader = try ParameterReader(call, allowed: ["postscriptName", "text"])
        let name = try reader.string("postscriptName", maximumBytes: Self.maximumNameBytes)
        guard let text = call.parameters["text"]?.stringValue else { throw VarlinkError.invalidParameter("text") }
        guard text.utf8.count <= TextResolver.maximumTextBytes else {
            throw VarlinkError(
                RegistryInterface.ErrorName.textTooLong,
                ["bytes": .int(text.utf8.count), "limit": .int(TextResolver.maximumTextBytes)])
        }
        guard let face = visibleFace(postscriptName: name, peer: peer) else {
            throw VarlinkError(RegistryInterface.ErrorName.faceNotFound, ["postscriptName": .string(name)])
        }
        return FaceCoverageReply(face: face, text: text).parameters
    }
}

import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

extension RegistryService {
    /// The most families one `ResolveText` stack may name.
    package static let maximumStackFamilies = 64

    /// `ResolveText` (issue 12): the text's runs, each with its face, and the code points nothing covers.
    ///
    /// The text is bounded (``TextResolver/maximumTextBytes``, `TextTooLong` over it) and so is the
    /// work: one bisection per grapheme cluster once a script's face is known.
    func resolveText(_ call: VarlinkCall) throws(VarlinkError) -> [String: JSONValue] {
        let allowed = Self.queryParameters.subtracting(["family"]).union(["text", "families", "language", "explain"])
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
        var styleParameters = call.parameters
        for name in ["text", "families", "language", "explain"] { styleParameters[name] = nil }
        styleParameters["family"] = .string("")
        let style = try Self.query(
            from: ParameterReader(VarlinkCall(method: "", parameters: styleParameters), allowed: Self.queryParameters))
        let query = TextQuery(families: families, style: style, language: language)
        do {
            let resolution = try TextResolver(resolver: registry.resolver).resolve(text, query, cache: textPlans)
            return TextReply(resolution, explain: explain).parameters
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
    func faceCoverage(_ call: VarlinkCall) throws(VarlinkError) -> [String: JSONValue] {
        let reader = try ParameterReader(call, allowed: ["postscriptName", "text"])
        let name = try reader.string("postscriptName", maximumBytes: Self.maximumNameBytes)
        guard let text = call.parameters["text"]?.stringValue else { throw VarlinkError.invalidParameter("text") }
        guard text.utf8.count <= TextResolver.maximumTextBytes else {
            throw VarlinkError(
                RegistryInterface.ErrorName.textTooLong,
                ["bytes": .int(text.utf8.count), "limit": .int(TextResolver.maximumTextBytes)])
        }
        guard let face = registry.index.face(postscriptName: name) else {
            throw VarlinkError(RegistryInterface.ErrorName.faceNotFound, ["postscriptName": .string(name)])
        }
        return FaceCoverageReply(face: face, text: text).parameters
    }
}

import FontRegCore
import FontRegProtocol

extension EmbeddedBackend {
    /// Resolves a text in process, as the daemon's `ResolveText` does (issue 12).
    /// In process there is no per-user setting: `statingBoldText` changes nothing.
    package func resolveText(_ text: String, _ query: TextQuery, explain: Bool, statingBoldText: Bool)
        throws(CLIError) -> TextReply
    {
        do {
            return TextReply(try TextResolver(resolver: registry.resolver).resolve(text, query), explain: explain)
        } catch {
            switch error {
            case .resolve: throw .notFound(CLIAdvice.message(error))
            case .textTooLong, .emptyStack: throw .failed(error.description)
            }
        }
    }

    /// What a face lacks of a text, as the daemon's `FaceCoverage` does (issue 12).
    package func faceCoverage(postscriptName: String, text: String) throws(CLIError) -> FaceCoverageReply {
        guard text.utf8.count <= TextResolver.maximumTextBytes else {
            throw .failed(
                TextResolveError.textTooLong(bytes: text.utf8.count, limit: TextResolver.maximumTextBytes).description)
        }
        return FaceCoverageReply(face: try face(postscriptName: postscriptName), text: text)
    }
}

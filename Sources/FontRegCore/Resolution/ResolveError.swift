/// Why a query could not be resolved.
public enum ResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No registered family has this name (strict mode, or no system fallback available).
    case familyNotFound(family: String, suggestions: [String])
    /// The family is known but no face of it can serve the query.
    case noFaceInFamily(family: String)

    /// What went wrong, for a person, with the near names when there are some.
    ///
    /// It names no program: which command lists the families is the client's advice to give
    /// (`fontresolve` adds it).
    public var description: String {
        switch self {
        case .familyNotFound(let family, let suggestions):
            guard !suggestions.isEmpty else { return "No registered family is named \"\(family)\"." }
            let names = suggestions.map { "\"\($0)\"" }.joined(separator: ", ")
            return "No registered family is named \"\(family)\". Did you mean \(names)?"
        case .noFaceInFamily(let family):
            return
                "The family \"\(family)\" has no face that can serve this query, and no system fallback was found. Register its font files, or install fontconfig's default fonts."
        }
    }
}

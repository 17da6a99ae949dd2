import FontRegJSON
import FontRegSystem

/// Why a query could not be resolved.
public enum ResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No registered family has this name (strict mode, or no system fallback available).
    case familyNotFound(family: String, suggestions: [String])
    /// The family is known but no face of it can serve the query.
    case noFaceInFamily(family: String)

    /// What went wrong and what to do about it, for a person.
    public var description: String {
        switch self {
        case .familyNotFound(let family, let suggestions):
            let hint =
                suggestions.isEmpty
                ? "List the registered families with `fontresolve list`, or register the family's files."
                : "Did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))?"
            return "No registered family is named \"\(family)\". \(hint)"
        case .noFaceInFamily(let family):
            return
                "The family \"\(family)\" has no face that can serve this query, and no system fallback was found. Register its font files, or install fontconfig's default fonts."
        }
    }
}

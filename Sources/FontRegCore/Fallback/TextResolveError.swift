/// Why a text could not be resolved.
public enum TextResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is longer than one call takes.
    case textTooLong(bytes: Int, limit: Int)
    /// The stack names no family at all.
    case emptyStack
    /// A family of the stack could not be resolved (strict mode and an unknown family).
    case resolve(ResolveError)

    /// What went wrong and what to do about it, for a person.
    public var description: String {
        switch self {
        case .textTooLong(let bytes, let limit):
            return "The text has \(bytes) UTF-8 bytes; one call takes at most \(limit). Split it into paragraphs."
        case .emptyStack:
            return "Name at least one family (a family name or sans-serif, serif, monospace, emoji, system-ui)."
        case .resolve(let error):
            return error.description
        }
    }
}

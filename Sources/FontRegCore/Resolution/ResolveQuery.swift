import FontRegJSON
import FontRegSystem

/// What a caller asks the resolver for: a family, a weight and a style, and how Bold Text applies.
public struct ResolveQuery: Sendable, Hashable, Codable {
    /// The family as a design system names it ("Noto Sans", "NotoSans", "noto-sans" are the same).
    public var family: String
    /// The requested weight.
    public var weight: FontWeight
    /// Whether an italic face is wanted.
    public var italic: Bool
    /// Whether the Accessibility Bold Text setting is on.
    public var boldText: Bool
    /// The Bold Text policy; `nil` means the family rule's policy (default `next-heavier`).
    public var boldPolicy: BoldTextPolicy?
    /// Strict mode: an unknown family or a family with no usable face is an error, never a system fallback.
    public var strict: Bool

    /// Creates a query.
    ///
    /// - Parameters:
    ///   - family: the family name; case, spaces, hyphens and underscores do not matter.
    ///   - weight: the requested weight.
    ///   - italic: whether an italic face is wanted.
    ///   - boldText: whether the Accessibility Bold Text setting is on.
    ///   - boldPolicy: the Bold Text policy, or `nil` for the family rule's.
    ///   - strict: whether an unknown family is an error rather than a system fallback.
    public init(
        family: String, weight: FontWeight = .regular, italic: Bool = false,
        boldText: Bool = false, boldPolicy: BoldTextPolicy? = nil, strict: Bool = false
    ) {
        self.family = family
        self.weight = weight
        self.italic = italic
        self.boldText = boldText
        self.boldPolicy = boldPolicy
        self.strict = strict
    }
}

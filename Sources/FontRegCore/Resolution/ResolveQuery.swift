/// What a caller asks the resolver for: a family, a weight, a width, a style and an optical size,
/// how Bold Text applies, and what the renderer may fake.
public struct ResolveQuery: Sendable, Hashable, Codable {
    /// The family as a design system names it ("Noto Sans", "NotoSans", "noto-sans" are the same).
    public var family: String
    /// The requested weight.
    public var weight: FontWeight
    /// The requested style (CSS `font-style`).
    public var style: RequestedStyle
    /// The requested width in percent (CSS `font-stretch`); `nil` means normal (100 %), not set.
    public var width: Double?
    /// The text size in points, for the `opsz` axis (CSS `font-optical-sizing: auto`); `nil` leaves `opsz` alone.
    public var opticalSize: Double?
    /// What the renderer may fake (CSS `font-synthesis`); both by default.
    public var synthesis: SynthesisPermission
    /// Whether the Accessibility Bold Text setting is on.
    public var boldText: Bool
    /// The Bold Text policy; `nil` means the family rule's policy (default `next-heavier`).
    public var boldPolicy: BoldTextPolicy?
    /// Strict mode: an unknown family or a family with no usable face is an error, never a system fallback.
    public var strict: Bool

    /// Whether an italic face is wanted: the shorthand for `style` `.italic` (setting false makes it `.normal`).
    public var italic: Bool {
        get { style == .italic }
        set { style = newValue ? .italic : (style == .italic ? .normal : style) }
    }

    /// Creates a query; `italic: true` is the shorthand for `style: .italic`.
    ///
    /// - Parameters:
    ///   - family: the family name; case, spaces, hyphens and underscores do not matter.
    ///   - weight: the requested weight.
    ///   - italic: whether an italic face is wanted.
    ///   - boldText: whether the Accessibility Bold Text setting is on.
    ///   - boldPolicy: the Bold Text policy, or `nil` for the family rule's.
    ///   - strict: whether an unknown family is an error rather than a system fallback.
    ///   - style: the CSS style; overrides `italic` when given.
    ///   - width: the CSS width percentage, or `nil` for normal.
    ///   - opticalSize: the text size in points for `opsz`, or `nil` to leave it.
    ///   - synthesis: what the renderer may fake.
    public init(
        family: String, weight: FontWeight = .regular, italic: Bool = false,
        boldText: Bool = false, boldPolicy: BoldTextPolicy? = nil, strict: Bool = false,
        style: RequestedStyle? = nil, width: Double? = nil, opticalSize: Double? = nil,
        synthesis: SynthesisPermission = .all
    ) {
        self.family = family
        self.weight = weight
        self.style = style ?? (italic ? .italic : .normal)
        self.width = width
        self.opticalSize = opticalSize
        self.synthesis = synthesis
        self.boldText = boldText
        self.boldPolicy = boldPolicy
        self.strict = strict
    }

    /// Whether the query asks for a slanted face (italic, or oblique at a non-zero angle).
    var wantsSlant: Bool { style.isSlanted }
}

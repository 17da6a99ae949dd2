/// What the caller lets the renderer fake, as CSS `font-synthesis` states it (default: both).
public struct SynthesisPermission: Sendable, Hashable, CustomStringConvertible {
    /// Whether a bold may be faked (CSS `weight`).
    public var weight: Bool
    /// Whether a slant may be faked (CSS `style`).
    public var style: Bool

    /// Creates a permission; the default allows both.
    public init(weight: Bool = true, style: Bool = true) {
        self.weight = weight
        self.style = style
    }

    /// Both allowed: CSS's initial value.
    public static let all = SynthesisPermission()
    /// Nothing allowed: `none`.
    public static let none = SynthesisPermission(weight: false, style: false)

    /// Parses `none`, `weight`, `style`, `weight style` (either order; `small-caps` is accepted and ignored).
    ///
    /// - Returns: `nil` for any other word or an empty value.
    public init?(parsing text: String) {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," })
        guard !words.isEmpty else { return nil }
        if words == ["none"] {
            self = .none
            return
        }
        var permission = SynthesisPermission.none
        for word in words {
            switch word {
            case "weight": permission.weight = true
            case "style": permission.style = true
            case "small-caps": break
            default: return nil
            }
        }
        self = permission
    }

    /// The CSS form: `none`, `weight`, `style` or `weight style`.
    public var description: String {
        switch (weight, style) {
        case (false, false): "none"
        case (true, false): "weight"
        case (false, true): "style"
        case (true, true): "weight style"
        }
    }
}

extension SynthesisPermission: Codable {
    /// Decodes the CSS form (`"weight style"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let permission = SynthesisPermission(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "synthesis \"\(text)\" is not none, weight, style or weight style")
        }
        self = permission
    }

    /// Encodes the CSS form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The style a query asks for, as CSS `font-style` states it.
public enum RequestedStyle: Sendable, Hashable, CustomStringConvertible {
    /// An upright face.
    case normal
    /// An italic face (an oblique one stands in, then an upright one).
    case italic
    /// An oblique face at an angle in degrees (positive leans right); `nil` means CSS's default, 14°.
    case oblique(angle: Double?)

    /// CSS's angle for `oblique` without one, and for synthesized slant: 14°.
    public static let defaultObliqueAngle: Double = 14

    /// Parses `normal`, `italic`, `oblique` or `oblique <angle>deg` (−90 to 90 degrees).
    ///
    /// - Returns: `nil` for anything else.
    public init?(parsing text: String) {
        let words = text.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        switch words.first {
        case "normal" where words.count == 1: self = .normal
        case "italic" where words.count == 1: self = .italic
        case "oblique" where words.count == 1: self = .oblique(angle: nil)
        case "oblique" where words.count == 2:
            let raw = words[1].hasSuffix("deg") ? words[1].dropLast(3) : words[1]
            guard let angle = Double(raw), angle.isFinite, (-90...90).contains(angle) else { return nil }
            self = .oblique(angle: angle)
        default: return nil
        }
    }

    /// Whether a slanted face (italic or oblique) is asked for.
    public var isSlanted: Bool {
        switch self {
        case .normal: false
        case .italic: true
        case .oblique(let angle): (angle ?? Self.defaultObliqueAngle) != 0
        }
    }

    /// The CSS form: `normal`, `italic`, `oblique` or `oblique 10deg`.
    public var description: String {
        switch self {
        case .normal: "normal"
        case .italic: "italic"
        case .oblique(nil): "oblique"
        case .oblique(let angle?): "oblique \(VariationSetting.format(angle))deg"
        }
    }
}

extension RequestedStyle: Codable {
    /// Decodes the CSS form (`"oblique 10deg"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let style = RequestedStyle(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "style \"\(text)\" is not normal, italic, oblique or oblique <angle>deg")
        }
        self = style
    }

    /// Encodes the CSS form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A font weight on the OpenType / CSS scale, 1 to 1000.
///
/// Weights are numbers; names are parsed through ``FontWeight/init(parsing:heavy:)``
/// and the synonym table in `docs/weights.md` of the shared notes. The nine
/// named steps are 100, 200, … 900.
public struct FontWeight: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The weight on the OpenType 1–1000 scale.
    public let value: Int

    /// Creates a weight from a number on the OpenType scale.
    ///
    /// - Parameter value: the weight, 1...1000.
    /// - Returns: `nil` when `value` is outside 1...1000.
    public init?(_ value: Int) {
        guard (1...1000).contains(value) else { return nil }
        self.value = value
    }

    /// Creates a weight without range checking; for the library's own constants and clamped values.
    init(clamping value: Int) {
        self.value = min(1000, max(1, value))
    }

    /// Weight 100.
    public static let thin = FontWeight(clamping: 100)
    /// Weight 200.
    public static let extraLight = FontWeight(clamping: 200)
    /// Weight 300.
    public static let light = FontWeight(clamping: 300)
    /// Weight 400.
    public static let regular = FontWeight(clamping: 400)
    /// Weight 500.
    public static let medium = FontWeight(clamping: 500)
    /// Weight 600.
    public static let semibold = FontWeight(clamping: 600)
    /// Weight 700.
    public static let bold = FontWeight(clamping: 700)
    /// Weight 800.
    public static let extraBold = FontWeight(clamping: 800)
    /// Weight 900.
    public static let black = FontWeight(clamping: 900)

    /// The nine named steps, lightest first.
    public static let steps: [FontWeight] = (1...9).map { FontWeight(clamping: $0 * 100) }

    /// Whether this weight is one of the nine steps (100, 200, … 900).
    public var isStep: Bool { value % 100 == 0 && value <= 900 }

    /// The nearest of the nine steps; halfway values round up (450 → 500), 950+ → 900.
    public var nearestStep: FontWeight {
        FontWeight(clamping: min(900, max(100, ((value + 50) / 100) * 100)))
    }

    /// Orders weights from light to heavy.
    public static func < (lhs: FontWeight, rhs: FontWeight) -> Bool { lhs.value < rhs.value }

    /// The number, e.g. `600`.
    public var description: String { String(value) }

    /// The conventional English name of a step ("semibold"), or the number for other values.
    public var displayName: String {
        switch value {
        case 100: "thin"
        case 200: "extralight"
        case 300: "light"
        case 400: "regular"
        case 500: "medium"
        case 600: "semibold"
        case 700: "bold"
        case 800: "extrabold"
        case 900: "black"
        case 950: "extrablack"
        default: String(value)
        }
    }

    /// Decodes a weight from a JSON number.
    ///
    /// - Throws: `DecodingError` when the number is outside 1...1000.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(Int.self)
        guard let weight = FontWeight(raw) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "weight \(raw) is outside 1...1000")
        }
        self = weight
    }

    /// Encodes the weight as a plain number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// One axis value a renderer must set on a variable face, in user space (`wght` 650, `opsz` 24).
public struct VariationSetting: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The four-letter axis tag.
    public var tag: String
    /// The user-space value.
    public var value: Double

    /// Creates a setting.
    public init(tag: String, value: Double) {
        self.tag = tag
        self.value = value
    }

    /// `wght=650`.
    public var description: String { "\(tag)=\(Self.format(value))" }

    /// A number without a trailing `.0` (650, 87.5, -10).
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}

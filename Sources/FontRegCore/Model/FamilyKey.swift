/// The normalized form of a family name: "Noto Sans", "NotoSans" and "noto-sans" share one key.
///
/// Case, spaces, hyphens and underscores are ignored.
public struct FamilyKey: Hashable, Sendable, CustomStringConvertible {
    /// The normalized name: lower-cased, without spaces, hyphens or underscores.
    public let value: String

    /// Normalizes a family name.
    ///
    /// - Parameter name: the family name as written anywhere.
    public init(_ name: String) {
        value = FontWeight.normalizedName(name)
    }

    /// The normalized name.
    public var description: String { value }
}

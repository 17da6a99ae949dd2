import FontRegJSON
import FontRegSystem

/// The normalized form of a family name: "Noto Sans", "NotoSans" and "noto-sans" share one key.
///
/// Case, spaces, hyphens and underscores are ignored.
public struct FamilyKey: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    public init(_ name: String) {
        value = FontWeight.normalizedName(name)
    }

    public var description: String { value }
}

import Foundation

/// How the Accessibility Bold Text setting turns a weight into a heavier one.
public enum BoldTextPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// YMatterType's rule: the next heavier supported weight, else the heaviest supported one.
    case nextHeavier = "next-heavier"
    /// iOS's system font as YMatterType models it: +100 for 100–300, +200 for 400–600, 700+ → 900.
    case iosSystem = "ios-system"
    /// Android 12+: +300 (clamped to 1000), then the nearest face.
    case android
    /// CSS `bolder`: below 350 → 400; 350–549 → 700; 550–899 → 900; 900+ unchanged.
    case cssBolder = "css-bolder"

    /// Parses a policy name as the client and rule files spell it.
    ///
    /// - Parameter name: `next-heavier`, `ios-system`, `android` or `css-bolder`, or a synonym.
    public init?(name: String) {
        let key = name.lowercased().replacingOccurrences(of: "_", with: "-")
        switch key {
        case "next-heavier", "nextheavier", "ymattertype": self = .nextHeavier
        case "ios-system", "iossystem", "ios": self = .iosSystem
        case "android": self = .android
        case "css-bolder", "cssbolder", "bolder", "css": self = .cssBolder
        default: return nil
        }
    }
}

import Foundation

/// The region of Noto Sans CJK (and families named like it) for a BCP 47 language tag.
enum HanRegion {
    /// The language assumed when a query names none.
    static let assumedLanguage = "zh-Hans"

    /// `JP`, `SC`, `TC`, `HK` or `KR` for a tag; `nil` for a tag that is not a Han language.
    static func region(for language: String) -> String? {
        let tag = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if tag.hasPrefix("ja") { return "JP" }
        if tag.hasPrefix("ko") { return "KR" }
        if tag == "zh-hk" || tag.hasPrefix("zh-hant-hk") || tag == "zh-mo" || tag.hasPrefix("yue") { return "HK" }
        if tag.hasPrefix("zh-hant") || tag == "zh-tw" { return "TC" }
        if tag.hasPrefix("zh") { return "SC" }
        return nil
    }

    /// Whether a family name is of that region: "Noto Sans CJK JP", "Noto Serif CJK SC", "Source Han Sans KR", ….
    static func family(_ name: String, isOf region: String) -> Bool {
        let words = name.uppercased().split(separator: " ")
        return words.last.map { String($0) } == region
    }
}

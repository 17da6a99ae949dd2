import Foundation

/// What a caller asks for a text: a CSS `font-family` stack and the style every run keeps.
public struct TextQuery: Sendable, Hashable {
    /// The families in order; generic names (`sans-serif`, `serif`, `monospace`, `emoji`, `system-ui`) allowed.
    public var families: [String]
    /// The weight, style, width, Bold Text and its policy, synthesis and strictness; its `family` is ignored.
    public var style: ResolveQuery
    /// A BCP 47 language tag (`ja`, `zh-Hant`, …), or `nil`.
    public var language: String?

    /// The generic family names CSS defines that fontreg expands through fontconfig's configuration.
    public static let genericFamilies: Set<String> = [
        "sans-serif", "serif", "monospace", "emoji", "system-ui", "cursive", "fantasy",
    ]

    /// Creates a text query.
    ///
    /// - Parameters:
    ///   - families: the family stack.
    ///   - style: the weight, style, width and Bold Text setting (its family is ignored).
    ///   - language: the text's language, or `nil`.
    public init(families: [String], style: ResolveQuery, language: String? = nil) {
        self.families = families
        self.style = style
        self.language = language
    }

    /// Splits a CSS-like family list (`"Lato, Noto Sans", serif`) into names.
    ///
    /// - Parameter list: comma-separated names, optionally quoted.
    /// - Returns: the trimmed, unquoted names, empty ones left out.
    public static func families(from list: String) -> [String] {
        list.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }.filter { !$0.isEmpty }
    }
}

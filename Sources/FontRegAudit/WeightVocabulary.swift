import FontRegCore

/// The weight names each input format accepts, and how a name becomes a weight and a style.
///
/// `heavy` is 900 in DTCG and Tokens Studio (CSS meaning) and 800 in Swift / YMatterType
/// (Apple meaning) and in the native list (the project's default).
enum WeightVocabulary {
    /// The DTCG 2025.10 closed list. Exact spelling only: `Bold` or `semibold` are invalid there.
    static let dtcg: [(name: String, weight: Int)] = [
        ("thin", 100), ("hairline", 100), ("extra-light", 200), ("ultra-light", 200), ("light", 300),
        ("normal", 400), ("regular", 400), ("book", 400), ("medium", 500), ("semi-bold", 600),
        ("demi-bold", 600), ("bold", 700), ("extra-bold", 800), ("ultra-bold", 800), ("black", 900),
        ("heavy", 900), ("extra-black", 950), ("ultra-black", 950),
    ]

    /// A DTCG weight string, or `nil` when it is not on the closed list.
    static func dtcgWeight(_ text: String) -> FontWeight? {
        dtcg.first(where: { $0.name == text }).flatMap { FontWeight($0.weight) }
    }

    /// Tokens Studio's own names (normalized), on top of the project's synonym table; German names from its docs.
    static let studioExtras: [String: Int] = [
        "extraleicht": 200, "leicht": 300, "buch": 400, "kräftig": 500, "kraeftig": 500,
        "halbfett": 600, "dreiviertelfett": 700, "fett": 800, "extrafett": 900, "super": 900,
        "heavy": 900, "ultra": 950,
    ]

    /// Names shown when a Tokens Studio weight is unknown.
    static var studioAcceptedNames: [String] {
        [
            "Thin", "Hairline", "ExtraLight", "Ultra Light", "Light", "Regular", "Normal", "Book", "Medium",
            "Semi Bold", "Demi Bold", "Bold", "Extra Bold", "Ultra Bold", "Black", "Heavy", "ExtraBlack",
            "leicht", "buch", "kräftig", "halbfett", "fett", "extrafett",
            "any of these followed by Italic", "a bare Italic", "a number",
        ]
    }

    /// Splits a Figma-style weight (`"Bold Italic"`, `"Light normal"`, `"Italic"`, `"600"`) into weight and style.
    ///
    /// - Returns: `nil` when the weight part is not a known name.
    static func studioWeight(_ text: String) -> (weight: FontWeight, style: FontStyle)? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        var style = FontStyle.normal
        if let last = words.last {
            if last == "italic" || last == "oblique" {
                style = last == "italic" ? .italic : .oblique
                words.removeLast()
            } else if last == "normal" && words.count > 1 {
                words.removeLast()
            } else if last.hasSuffix("italic") && last != "italic" {
                // "BoldItalic" written as one word.
                style = .italic
                words[words.count - 1] = String(last.dropLast("italic".count))
            }
        }
        let key = words.joined()
        if key.isEmpty { return (.regular, style) }
        if let value = studioExtras[key], let weight = FontWeight(value) { return (weight, style) }
        guard let weight = FontWeight(parsing: key, heavy: .w3c) else { return nil }
        return (weight, style)
    }

    /// Apple's weight names as YMatterType spells its `Typography.FontWeight` cases; `heavy` is 800.
    ///
    /// `ultralight` is 200 and `thin` 100, the OpenType order (YMatterType's early enum had them swapped).
    static let apple: [(name: String, weight: Int)] = [
        ("thin", 100), ("ultralight", 200), ("light", 300), ("regular", 400), ("medium", 500),
        ("semibold", 600), ("bold", 700), ("heavy", 800), ("black", 900),
    ]

    /// An Apple weight case name (`semibold`, `heavy`), or `nil`.
    static func appleWeight(_ name: String) -> FontWeight? {
        apple.first(where: { $0.name == name }).flatMap { FontWeight($0.weight) }
    }
}

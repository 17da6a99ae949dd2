import Foundation

/// A font width as CSS `font-stretch` states it: a percentage of the normal width (50 %–200 %).
///
/// The nine keywords map to the nine OpenType width classes (`OS/2.usWidthClass`):
/// `ultra-condensed` 50 %, `extra-condensed` 62.5 %, `condensed` 75 %, `semi-condensed` 87.5 %,
/// `normal` 100 %, `semi-expanded` 112.5 %, `expanded` 125 %, `extra-expanded` 150 %,
/// `ultra-expanded` 200 %.
public enum FontWidth {
    /// The percentages of the nine width classes, class 1 first.
    public static let classPercentages: [Double] = [50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200]

    /// The CSS keywords of the nine width classes, class 1 first.
    public static let keywords = [
        "ultra-condensed", "extra-condensed", "condensed", "semi-condensed", "normal",
        "semi-expanded", "expanded", "extra-expanded", "ultra-expanded",
    ]

    /// The percentage of an OpenType width class (1–9; out-of-range classes are clamped).
    public static func percentage(widthClass: Int) -> Double {
        classPercentages[min(9, max(1, widthClass)) - 1]
    }

    /// The width class nearest to a percentage (ties go to the narrower class).
    public static func widthClass(percentage: Double) -> Int {
        var best = 1
        for (i, value) in classPercentages.enumerated()
        where abs(value - percentage) < abs(classPercentages[best - 1] - percentage) {
            best = i + 1
        }
        return best
    }

    /// Parses a CSS `font-stretch` value: a keyword, `87.5%` or a bare number.
    ///
    /// - Returns: the percentage, or `nil` for anything else or a value outside 1 %–1000 %.
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let index = keywords.firstIndex(of: trimmed) { return classPercentages[index] }
        let number = trimmed.hasSuffix("%") ? String(trimmed.dropLast()) : trimmed
        guard let value = Double(number), value.isFinite, (1...1000).contains(value) else { return nil }
        return value
    }

    /// The keyword of a percentage that is exactly one of the nine classes, else `87.5%`.
    public static func describe(_ percentage: Double) -> String {
        if let index = classPercentages.firstIndex(of: percentage) { return keywords[index] }
        return "\(VariationSetting.format(percentage))%"
    }
}

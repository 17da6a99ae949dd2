// Written by fontresolve audit (emit ios, ymattertype2): the design system's text styles.
import UIKit
import YMatterType

extension Typography {
    /// text.body: line height 24 (minimum = maximum), baselineOffset 1.333 at @3x; baseline 17.47 from the line's top (Figma: 17.818).
    static let textBody = Typography(
        fontFamily: FontRegInterFontFamily(), fontWeight: .regular, fontSize: 16, lineHeight: 24)
    /// text.bodyStrong: line height 24 (minimum = maximum), baselineOffset 1.333 at @3x; baseline 17.47 from the line's top (Figma: 17.818).
    static let textBodyStrong = Typography(
        fontFamily: FontRegInterFontFamily(), fontWeight: .semibold, fontSize: 16, lineHeight: 24)
    /// text.caption: line height 18 (minimum = maximum), baselineOffset 1 at @3x; baseline 13.102 from the line's top (Figma: 13.364).
    static let textCaption = Typography(
        fontFamily: FontRegInterFontFamily(), fontWeight: .light, fontSize: 12, lineHeight: 18)
    /// text.title: line height 40 (minimum = maximum), baselineOffset 1 at @3x; baseline 31.184 from the line's top (Figma: 32.384).
    static let textTitle = Typography(
        fontFamily: FontRegLatoFontFamily(), fontWeight: .bold, fontSize: 32, lineHeight: 40)
    /// text.quote: line height 28 (minimum = maximum), baselineOffset 1.333 at @3x; baseline 21.073 from the line's top (Figma: 21.74).
    static let textQuote = Typography(
        fontFamily: FontRegLatoItalicFontFamily(), fontWeight: .regular, fontSize: 20, lineHeight: 28)
}

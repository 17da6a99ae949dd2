import FontRegCore
import Foundation

extension LayoutCommand {
    /// The answer for people: the face and its metrics, then a short table per platform.
    package static func render(_ answer: LayoutAnswer, console: Console) -> String {
        let f = LayoutAnswer.format
        let m = answer.face.metrics
        var lines = [
            console.styled(answer.face.postscriptName, .bold)
                + " at \(f(answer.size))px on a \(f(answer.lineHeight))px line",
            "  metrics: \(m.unitsPerEm) units/em; hhea \(m.hhea.ascender)/\(m.hhea.descender)/\(m.hhea.lineGap), "
                + "typo \(m.typo.ascender)/\(m.typo.descender)/\(m.typo.lineGap)"
                + (m.useTypoMetrics ? " (USE_TYPO_METRICS)" : "")
                + ", win \(m.win.ascent)/\(m.win.descent), cap \(m.capHeight), x \(m.xHeight)",
            "",
        ]
        let sections: [(String, [(String, String)])] = [
            ("Figma", [("baseline", f(answer.figma.baseline)), ("auto line height", f(answer.figma.autoLineHeight))]),
            (
                "CSS",
                [
                    ("line-height", "\(f(answer.css.lineHeight))px"), ("baseline", f(answer.css.baseline)),
                    ("ascent-override", "\(f(answer.css.ascentOverride))%"),
                    ("descent-override", "\(f(answer.css.descentOverride))%"),
                    ("line-gap-override", "\(f(answer.css.lineGapOverride))%"),
                    ("size-adjust", "\(f(answer.css.sizeAdjust))%"),
                ]
            ),
            (
                "iOS (YMatterType)",
                [
                    ("minimumLineHeight", f(answer.ios.minimumLineHeight)),
                    ("maximumLineHeight", f(answer.ios.maximumLineHeight)),
                    ("baselineOffset", "\(f(answer.ios.baselineOffset)) (@\(f(answer.ios.screenScale))x)"),
                    ("baseline", f(answer.ios.baseline)),
                ]
            ),
            (
                "Android",
                [
                    ("lineHeight", f(answer.android.lineHeight)),
                    ("firstBaselineToTopHeight", f(answer.android.firstBaselineToTopHeight)),
                    ("lastBaselineToBottomHeight", f(answer.android.lastBaselineToBottomHeight)),
                    ("includeFontPadding", "false"),
                ]
            ),
            (
                "Flutter",
                [("height", f(answer.flutter.height)), ("leadingDistribution", answer.flutter.leadingDistribution)]
            ),
            (
                "Compose",
                [
                    ("LineHeightStyle", "Alignment.\(answer.compose.alignment), Trim.\(answer.compose.trim)"),
                    ("includeFontPadding", "false"),
                ]
            ),
        ]
        for (title, rows) in sections {
            lines.append(console.styled(title, .bold))
            let width = rows.map(\.0.count).max() ?? 0
            for (name, value) in rows {
                lines.append("  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + value)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The formulas, with this face's values put in (`--explain`).
    package static func explain(_ answer: LayoutAnswer) -> String {
        let f = LayoutAnswer.format
        let m = answer.face.metrics
        let s = answer.size / Double(m.unitsPerEm)
        let a = Double(m.hhea.ascender), d = Double(-m.hhea.descender), g = Double(m.hhea.lineGap)
        let line = f(answer.lineHeight)
        return [
            "Formulas (s = size/unitsPerEm = \(f(answer.size))/\(m.unitsPerEm); A, D, G = hhea ascender, −descender, lineGap = \(f(a)), \(f(d)), \(f(g))):",
            "  Figma baseline = (L − (A + D)·s)/2 + A·s = (\(line) − \(f((a + d) * s)))/2 + \(f(a * s)) = \(f(answer.figma.baseline))",
            "  Figma AUTO = (A + D + G)·s = \(f(answer.figma.autoLineHeight))",
            "  CSS ascent-override = A/upm·100 = \(f(answer.css.ascentOverride))%, descent-override = D/upm·100 = \(f(answer.css.descentOverride))%, line-gap-override 0%: every engine then uses A, D and G = 0, and half-leading gives Figma's baseline",
            "  iOS baselineOffset = max(ceil(((L − 2·(D + G)·s − cap·s)/4)·scale)/scale, 0) = \(f(answer.ios.baselineOffset)) (YMatterType Typography+Font.swift; scale \(f(answer.ios.screenScale)))",
            "  iOS baseline = L − (D + G)·s − 2·baselineOffset = \(f(answer.ios.baseline))",
            "  Android firstBaselineToTopHeight = Figma baseline; lastBaselineToBottomHeight = L − baseline = \(f(answer.android.lastBaselineToBottomHeight))",
            "  Flutter height = L/size = \(f(answer.flutter.height)), leadingDistribution even (half-leading)",
            "  Compose LineHeightStyle(Alignment.Center, Trim.None): half-leading, nothing trimmed",
        ].joined(separator: "\n")
    }
}

import Foundation

/// Where a face puts its baseline on a line of a given height, and the settings that make each
/// platform agree (issue 27; the formulas and their sources are in `docs/layout.md`).
///
/// Every platform answer is set up to place the first baseline where Figma does: half the
/// leading above and below the `hhea` ascender and descender. All lengths are in pixels
/// (points on iOS, dp/sp on Android: design pixels at 1×), measured down from the line's top.
public struct LayoutAnswer: Sendable, Hashable {
    /// The face the answer is for; its ``FaceRecord/metrics`` are the input.
    public var face: FaceRecord
    /// The font size in pixels.
    public var size: Double
    /// The line height in pixels.
    public var lineHeight: Double
    /// Figma's placement.
    public var figma: Figma
    /// CSS: the line height and the `@font-face` overrides that pin the metrics in every engine.
    public var css: CSS
    /// UIKit through YMatterType's paragraph style and baseline offset.
    public var ios: IOS
    /// An Android `TextView`.
    public var android: Android
    /// Flutter's `TextStyle`.
    public var flutter: Flutter
    /// Jetpack Compose's `LineHeightStyle`.
    public var compose: Compose

    /// The screen scale the iOS baseline offset is rounded to (@3x, as current iPhones).
    public static let screenScale = 3.0

    /// Computes the answer for a face at a size and line height.
    ///
    /// - Parameters:
    ///   - face: the face; its metrics must have been read from its file.
    ///   - size: the font size in pixels.
    ///   - lineHeight: the line height.
    /// - Throws: ``LayoutError`` for a face without metrics or a size or height not above 0.
    public init(face: FaceRecord, size: Double, lineHeight: LineHeight) throws(LayoutError) {
        guard size.isFinite, size > 0 else { throw .invalidSize(size) }
        let height = lineHeight.pixels(size: size)
        guard height.isFinite, height > 0 else { throw .invalidLineHeight(height) }
        let m = face.metrics
        guard m.unitsPerEm > 0 else { throw .noMetrics(postscriptName: face.postscriptName) }
        let upm = Double(m.unitsPerEm), scale = size / upm
        let ascent = Double(m.hhea.ascender), descent = Double(-m.hhea.descender), gap = Double(m.hhea.lineGap)
        let baseline = (height - (ascent + descent) * scale) / 2 + ascent * scale
        self.face = face
        self.size = size
        self.lineHeight = height
        figma = Figma(baseline: baseline, autoLineHeight: (ascent + descent + gap) * scale)
        css = CSS(
            lineHeight: height, baseline: baseline, ascentOverride: ascent / upm * 100,
            descentOverride: descent / upm * 100, lineGapOverride: 0, sizeAdjust: 100)
        ios = IOS(
            lineHeight: height, descent: (descent + gap) * scale, capHeight: Double(m.capHeight) * scale,
            screenScale: Self.screenScale)
        android = Android(
            lineHeight: height, firstBaselineToTopHeight: baseline, lastBaselineToBottomHeight: height - baseline)
        flutter = Flutter(height: height / size)
        compose = Compose()
    }

    /// A number for people: at most three decimals, no trailing zeros (`18.192`, `24`).
    package static func format(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

extension LayoutAnswer {
    /// Figma's line: the leading split equally above and below the `hhea` ascender and descender.
    public struct Figma: Sendable, Hashable {
        /// The baseline: `(lineHeight − (ascender − descender)·size/upm)/2 + ascender·size/upm`.
        public var baseline: Double
        /// Figma's AUTO line height: `(ascender − descender + lineGap)·size/upm`, from `hhea`.
        public var autoLineHeight: Double
    }

    /// CSS: the `line-height` and the `@font-face` descriptors that give every engine Figma's baseline.
    ///
    /// Without the overrides each engine picks its own table (`hhea`, typo or Windows, by
    /// operating system and `USE_TYPO_METRICS`; csswg-drafts #2228); with them every engine
    /// uses the `hhea` values, and half-leading then puts the baseline at ``Figma/baseline``.
    public struct CSS: Sendable, Hashable {
        /// `line-height` in pixels.
        public var lineHeight: Double
        /// Where the baseline lands with the overrides: Figma's.
        public var baseline: Double
        /// `ascent-override`, a percentage of the em: `hhea.ascender / upm · 100`.
        public var ascentOverride: Double
        /// `descent-override`, a percentage of the em: `−hhea.descender / upm · 100`.
        public var descentOverride: Double
        /// `line-gap-override`: 0, so that `normal` and half-leading ignore the gap as Figma does.
        public var lineGapOverride: Double
        /// `size-adjust`: 100 (the face is drawn at its own size).
        public var sizeAdjust: Double
    }

    /// UIKit through YMatterType (`Typography+Font.swift` lines 61–82, `generateLayout`): a fixed line height
    /// and a baseline offset that centres the cap height in the line.
    public struct IOS: Sendable, Hashable {
        /// `NSParagraphStyle.minimumLineHeight`: the line height.
        public var minimumLineHeight: Double
        /// `NSParagraphStyle.maximumLineHeight`: the line height.
        public var maximumLineHeight: Double
        /// The `.baselineOffset` attribute:
        /// `max(ceil(((L − 2·(|descender| + leading) − capHeight)/4)·scale)/scale, 0)`.
        public var baselineOffset: Double
        /// Where the baseline lands: `L − (|descender| + leading) − 2·baselineOffset` (a raised
        /// offset moves the text up twice as far, as YMatterType's comment measured).
        public var baseline: Double
        /// The screen scale the offset is rounded up to.
        public var screenScale: Double

        init(lineHeight: Double, descent: Double, capHeight: Double, screenScale: Double) {
            minimumLineHeight = lineHeight
            maximumLineHeight = lineHeight
            let raw = (lineHeight - 2 * descent - capHeight) / 4
            baselineOffset = max((raw * screenScale).rounded(.up) / screenScale, 0)
            baseline = lineHeight - descent - 2 * baselineOffset
            self.screenScale = screenScale
        }
    }

    /// An Android `TextView` (API 28+): `lineHeight`, and the first baseline pinned to Figma's.
    public struct Android: Sendable, Hashable {
        /// `android:lineHeight`.
        public var lineHeight: Double
        /// `android:firstBaselineToTopHeight`: Figma's baseline.
        public var firstBaselineToTopHeight: Double
        /// `android:lastBaselineToBottomHeight`: the rest of the line below the baseline.
        public var lastBaselineToBottomHeight: Double
        /// `android:includeFontPadding`: false, so the ascent and descent are the font's, not its extremes.
        public var includeFontPadding = false
    }

    /// Flutter's `TextStyle`: `height` with even leading distribution (half-leading).
    public struct Flutter: Sendable, Hashable {
        /// `TextStyle.height`: the line height as a multiple of the font size.
        public var height: Double
        /// `TextStyle.leadingDistribution`: `even` (the default, `proportional`, is not half-leading).
        public var leadingDistribution = "even"
    }

    /// Jetpack Compose's `LineHeightStyle` (with `PlatformTextStyle(includeFontPadding = false)`).
    public struct Compose: Sendable, Hashable {
        /// `LineHeightStyle.Alignment`: `Center` (half-leading; the default `Proportional` is not).
        public var alignment = "Center"
        /// `LineHeightStyle.Trim`: `None`, keeping the half-leading above the first line and
        /// below the last, as Figma's text box does.
        public var trim = "None"
    }
}

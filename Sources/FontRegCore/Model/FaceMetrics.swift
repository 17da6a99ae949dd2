/// The vertical metrics of a face, in font units, each value as its table stores it.
///
/// The `hhea` and `OS/2` typo descenders are negative (below the baseline), `usWinDescent` is
/// positive. Line height and baseline answers (``LayoutAnswer``) are computed from these.
///
/// For a variable font's named instance the values are those at the instance's coordinates:
/// FreeType applies the `MVAR` deltas to the `OS/2` fields (typo, Windows, cap height,
/// x-height); `MVAR` has no tags for `hhea`, whose values follow the typo ones when the default
/// face has them equal (as fontTools' instancer does) and stay as stored otherwise. The default
/// face of a variable font carries the default values, and ``FaceRecord/metrics(at:)`` the values
/// at any coordinates (a resolution that sets axes carries those); `unitsPerEm` never varies.
public struct FaceMetrics: Sendable, Hashable, Codable {
    /// The `hhea` table's line metrics (`ascender`, `descender`, `lineGap`).
    public var hhea: LineMetrics
    /// The `OS/2` table's typographic metrics (`sTypoAscender`, `sTypoDescender`, `sTypoLineGap`).
    public var typo: LineMetrics
    /// The `OS/2` table's Windows clipping metrics (`usWinAscent`, `usWinDescent`).
    public var win: WindowsMetrics
    /// `head.unitsPerEm`: the font units of one em.
    public var unitsPerEm: Int
    /// Whether `OS/2.fsSelection` bit 7 (`USE_TYPO_METRICS`) is set.
    public var useTypoMetrics: Bool
    /// `OS/2.sCapHeight` (`OS/2` version 2 and later); 0 when the table is older or missing.
    public var capHeight: Int
    /// `OS/2.sxHeight` (`OS/2` version 2 and later); 0 when the table is older or missing.
    public var xHeight: Int

    /// Metrics with every value zero: a face record built without reading its file.
    public static let zero = FaceMetrics(
        unitsPerEm: 0, hhea: LineMetrics(), typo: LineMetrics(), win: WindowsMetrics(), useTypoMetrics: false,
        capHeight: 0, xHeight: 0)

    /// Creates metrics from the values of the tables.
    ///
    /// - Parameters:
    ///   - unitsPerEm: `head.unitsPerEm`.
    ///   - hhea: the `hhea` ascender, descender (negative) and line gap.
    ///   - typo: the `OS/2` typo ascender, descender (negative) and line gap.
    ///   - win: `usWinAscent` and `usWinDescent` (positive).
    ///   - useTypoMetrics: `OS/2.fsSelection` bit 7.
    ///   - capHeight: `OS/2.sCapHeight`, 0 when unknown.
    ///   - xHeight: `OS/2.sxHeight`, 0 when unknown.
    public init(
        unitsPerEm: Int, hhea: LineMetrics, typo: LineMetrics, win: WindowsMetrics, useTypoMetrics: Bool,
        capHeight: Int, xHeight: Int
    ) {
        self.unitsPerEm = unitsPerEm
        self.hhea = hhea
        self.typo = typo
        self.win = win
        self.useTypoMetrics = useTypoMetrics
        self.capHeight = capHeight
        self.xHeight = xHeight
    }
}

/// An ascender, descender and line gap in font units, as `hhea` or `OS/2` store them.
public struct LineMetrics: Sendable, Hashable, Codable {
    /// The height above the baseline.
    public var ascender: Int
    /// The depth below the baseline, negative for a descent below it.
    public var descender: Int
    /// The extra space the font asks between lines.
    public var lineGap: Int

    /// Creates line metrics.
    ///
    /// - Parameters:
    ///   - ascender: the ascender.
    ///   - descender: the descender (negative below the baseline).
    ///   - lineGap: the line gap.
    public init(ascender: Int = 0, descender: Int = 0, lineGap: Int = 0) {
        self.ascender = ascender
        self.descender = descender
        self.lineGap = lineGap
    }
}

/// `OS/2.usWinAscent` and `usWinDescent`, both positive, in font units.
public struct WindowsMetrics: Sendable, Hashable, Codable {
    /// `usWinAscent`.
    public var ascent: Int
    /// `usWinDescent`, positive below the baseline.
    public var descent: Int

    /// Creates Windows metrics.
    ///
    /// - Parameters:
    ///   - ascent: `usWinAscent`.
    ///   - descent: `usWinDescent` (positive).
    public init(ascent: Int = 0, descent: Int = 0) {
        self.ascent = ascent
        self.descent = descent
    }
}

/// One registered font face: a face of a file, or a named instance of a variable font.
///
/// Records are immutable values taken from the font file by FreeType; the index keeps
/// them in snapshots and the resolver returns them.
public struct FaceRecord: Sendable, Hashable, Codable {
    /// The PostScript name (name ID 6, or FreeType's name for a named instance).
    public var postscriptName: String
    /// The typographic family (name ID 16, falling back to 1): the family a design system means.
    public var family: String
    /// The typographic subfamily (name ID 17, falling back to 2), e.g. "SemiBold Italic".
    public var subfamily: String
    /// The full name (name ID 4).
    public var fullName: String
    /// The weight on the OpenType 1–1000 scale (a named instance's `wght` coordinate).
    public var weight: Int
    /// Whether the face is italic.
    public var italic: Bool
    /// Whether the face is oblique (a slanted roman), as opposed to a true italic.
    public var oblique: Bool
    /// The OpenType width class, 1 (ultra-condensed) to 9 (ultra-expanded); 5 is normal.
    public var width: Int
    /// The width as a CSS `font-stretch` percentage: a named instance's `wdth` coordinate, the
    /// `wdth` default of a variable face, else the percentage of ``width``.
    public var widthPercent: Double
    /// The slant the file declares, `post.italicAngle` in degrees (negative leans right, as OpenType counts).
    public var italicAngle: Double
    /// A named instance's coordinates in axis order (every axis of the file); empty otherwise.
    public var coordinates: [VariationSetting]
    /// The font's own version, `head.fontRevision` (a 16.16 fixed-point number such as 3.019); 0 when unknown.
    public var fontRevision: Double
    /// The absolute path of the font file.
    public var file: String
    /// The face index inside the file (0 for single-face files; the collection index otherwise).
    public var index: Int
    /// The named-instance number (1-based, as FreeType counts) for a variable font's instance; `nil` otherwise.
    public var instance: Int?
    /// The vertical metrics from `head`, `hhea` and `OS/2`, in font units (issue 27);
    /// ``FaceMetrics/zero`` for a record built without its file.
    public var metrics: FaceMetrics
    /// The size of the font file in bytes.
    public var fileSize: Int64
    /// The container format: `TrueType`, `CFF`, `TrueType Collection`, `WOFF`, `WOFF2`, ….
    public var format: String
    /// Whether the face carries colour glyphs (COLR, CBDT, sbix or SVG tables).
    public var isColor: Bool
    /// The variation axes of the file (empty for static fonts).
    public var axes: [VariationAxis]
    /// The code points the face maps and the languages it supports (issue 12); empty when unknown.
    ///
    /// Kept out of the record's JSON (`Codable`) forms and out of its equality: coverage follows
    /// from the file and face index, which equality already compares (see `CoverageSlot`).
    public var coverage: CharacterCoverage {
        get { coverageSlot.value }
        set { coverageSlot.value = newValue }
    }
    private var coverageSlot = CoverageSlot()

    /// The font's `MVAR` deltas for ``metrics`` at other coordinates, or why they were ignored
    /// (issue 27); kept out of equality and the JSON forms, as ``coverage`` is.
    package var metricsVariation = MetricsVariationSlot()

    /// The metrics at `coordinates` on this face: ``metrics`` with the `MVAR` deltas there,
    /// or ``metrics`` itself for a static face, a font without `MVAR` or no coordinates.
    ///
    /// - Parameter coordinates: the axis values a renderer sets (``Resolution/variations``);
    ///   an axis not named is at the face's own coordinate (a named instance's) or its default.
    public func metrics(at coordinates: [VariationSetting]) -> FaceMetrics {
        guard !coordinates.isEmpty, let variation = metricsVariation.variation else { return metrics }
        var full = self.coordinates
        for setting in coordinates {
            if let i = full.firstIndex(where: { $0.tag == setting.tag }) {
                full[i] = setting
            } else {
                full.append(setting)
            }
        }
        if full == self.coordinates && instance != nil { return metrics }
        return variation.metrics(at: full, axes: axes)
    }

    /// The index FreeType and fontconfig use: `instance << 16 | index`.
    public var freetypeIndex: Int { ((instance ?? 0) << 16) | index }

    /// The style as a word: `normal`, `italic` or `oblique`.
    public var style: FontStyle { italic ? .italic : (oblique ? .oblique : .normal) }

    /// The range of weights this face serves: its `wght` axis for the default face of a
    /// variable font, else its single weight.
    public var weightRange: ClosedRange<Int> {
        if instance == nil, let axis = axes.first(where: { $0.tag == "wght" }) {
            return Int(axis.minimum.rounded())...Int(axis.maximum.rounded())
        }
        return weight...weight
    }

    /// Creates a face record; the scanner builds them from font files.
    ///
    /// Build records yourself to resolve over faces you know without scanning (see ``Resolver``).
    /// - Parameters:
    ///   - postscriptName: the PostScript name.
    ///   - family: the typographic family name.
    ///   - subfamily: the style name, e.g. `Bold Italic`.
    ///   - fullName: the full name.
    ///   - weight: the OpenType weight.
    ///   - italic: whether the face is italic.
    ///   - oblique: whether the face is oblique.
    ///   - width: the OpenType width class, 1...9 (5 is normal).
    ///   - file: the path of the font file.
    ///   - index: the face index inside the file.
    ///   - instance: the named-instance number of a variable font, when the face is one.
    ///   - fileSize: the size of the file in bytes.
    ///   - format: the font format, e.g. `TrueType`.
    ///   - isColor: whether the face has color glyphs.
    ///   - axes: the variation axes of a variable font.
    ///   - widthPercent: the CSS width percentage; `nil` takes the percentage of `width`.
    ///   - italicAngle: `post.italicAngle` in degrees (negative leans right).
    ///   - coordinates: a named instance's axis values, in axis order.
    ///   - fontRevision: `head.fontRevision`.
    ///   - metrics: the vertical metrics, in font units.
    public init(
        postscriptName: String, family: String, subfamily: String, fullName: String,
        weight: Int, italic: Bool, oblique: Bool = false, width: Int = 5, file: String,
        index: Int = 0, instance: Int? = nil, fileSize: Int64 = 0, format: String = "TrueType",
        isColor: Bool = false, axes: [VariationAxis] = [], widthPercent: Double? = nil, italicAngle: Double = 0,
        coordinates: [VariationSetting] = [], fontRevision: Double = 0, metrics: FaceMetrics = .zero
    ) {
        self.metrics = metrics
        self.widthPercent = widthPercent ?? FontWidth.percentage(widthClass: width)
        self.italicAngle = italicAngle
        self.coordinates = coordinates
        self.fontRevision = fontRevision
        self.postscriptName = postscriptName
        self.family = family
        self.subfamily = subfamily
        self.fullName = fullName
        self.weight = weight
        self.italic = italic
        self.oblique = oblique
        self.width = width
        self.file = file
        self.index = index
        self.instance = instance
        self.fileSize = fileSize
        self.format = format
        self.isColor = isColor
        self.axes = axes
    }
}

extension FaceRecord {
    private enum CodingKeys: String, CodingKey {
        case postscriptName, family, subfamily, fullName, weight, italic, oblique, width, file, index, instance
        case fileSize, format, isColor, axes, widthPercent, italicAngle, coordinates, fontRevision, metrics
    }

    /// Decodes a record; the fields added with issue 11 (width percentage, italic angle,
    /// coordinates, font revision) and with issue 27 (metrics) may be absent, as in records
    /// written by an older fontreg.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            postscriptName: try c.decode(String.self, forKey: .postscriptName),
            family: try c.decode(String.self, forKey: .family),
            subfamily: try c.decode(String.self, forKey: .subfamily),
            fullName: try c.decode(String.self, forKey: .fullName),
            weight: try c.decode(Int.self, forKey: .weight),
            italic: try c.decode(Bool.self, forKey: .italic),
            oblique: try c.decodeIfPresent(Bool.self, forKey: .oblique) ?? false,
            width: try c.decodeIfPresent(Int.self, forKey: .width) ?? 5,
            file: try c.decode(String.self, forKey: .file),
            index: try c.decodeIfPresent(Int.self, forKey: .index) ?? 0,
            instance: try c.decodeIfPresent(Int.self, forKey: .instance),
            fileSize: try c.decodeIfPresent(Int64.self, forKey: .fileSize) ?? 0,
            format: try c.decodeIfPresent(String.self, forKey: .format) ?? "TrueType",
            isColor: try c.decodeIfPresent(Bool.self, forKey: .isColor) ?? false,
            axes: try c.decodeIfPresent([VariationAxis].self, forKey: .axes) ?? [],
            widthPercent: try c.decodeIfPresent(Double.self, forKey: .widthPercent),
            italicAngle: try c.decodeIfPresent(Double.self, forKey: .italicAngle) ?? 0,
            coordinates: try c.decodeIfPresent([VariationSetting].self, forKey: .coordinates) ?? [],
            fontRevision: try c.decodeIfPresent(Double.self, forKey: .fontRevision) ?? 0,
            metrics: try c.decodeIfPresent(FaceMetrics.self, forKey: .metrics) ?? .zero)
    }
}

/// A variation axis of a variable font, in user units.
public struct VariationAxis: Sendable, Hashable, Codable {
    /// The four-letter tag, e.g. `wght`.
    public var tag: String
    /// The lightest value the axis allows.
    public var minimum: Double
    /// The value without variation.
    public var defaultValue: Double
    /// The heaviest value the axis allows.
    public var maximum: Double

    /// Creates an axis.
    ///
    /// - Parameters:
    ///   - tag: the four-letter tag.
    ///   - minimum: the smallest value.
    ///   - defaultValue: the default value.
    ///   - maximum: the largest value.
    public init(tag: String, minimum: Double, defaultValue: Double, maximum: Double) {
        self.tag = tag
        self.minimum = minimum
        self.defaultValue = defaultValue
        self.maximum = maximum
    }
}

/// The style a query asks for or a face has.
public enum FontStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Upright, italic (a designed italic), or oblique (a slanted upright).
    case normal, italic, oblique
}

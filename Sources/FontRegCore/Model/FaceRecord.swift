import FontRegJSON
import FontRegSystem
import Foundation

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
    /// The absolute path of the font file.
    public var file: String
    /// The face index inside the file (0 for single-face files; the collection index otherwise).
    public var index: Int
    /// The named-instance number (1-based, as FreeType counts) for a variable font's instance; `nil` otherwise.
    public var instance: Int?
    /// The size of the font file in bytes.
    public var fileSize: Int64
    /// The container format: `TrueType`, `CFF`, `TrueType Collection`, `WOFF`, `WOFF2`, ….
    public var format: String
    /// Whether the face carries colour glyphs (COLR, CBDT, sbix or SVG tables).
    public var isColor: Bool
    /// The variation axes of the file (empty for static fonts).
    public var axes: [VariationAxis]

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
    public init(
        postscriptName: String, family: String, subfamily: String, fullName: String,
        weight: Int, italic: Bool, oblique: Bool = false, width: Int = 5, file: String,
        index: Int = 0, instance: Int? = nil, fileSize: Int64 = 0, format: String = "TrueType",
        isColor: Bool = false, axes: [VariationAxis] = []
    ) {
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

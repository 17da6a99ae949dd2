import FontRegCore
import FontRegJSON

/// One text style of a design system reduced to what the audit needs: family stack, weight, style.
///
/// Readers of every input format produce these; "used" in the audit means "appears in a
/// `TypographyUse`", never merely "defined in a palette".
package struct TypographyUse: Sendable, Hashable {
    /// The family stack as declared, first entry the design's choice (`["Inter", "sans-serif"]`).
    package var familyStack: [String]
    /// The weight the style asks for, exactly as written (450 stays 450).
    package var weight: FontWeight
    /// `normal` or `italic` (an oblique request is kept as `oblique`).
    package var style: FontStyle
    /// Where the style was declared.
    package var origin: UseOrigin
    /// The weights the family supports for Bold Text, when the input says so
    /// (a custom YMatterType `FontFamily` overriding `supportedWeights`).
    package var supportedWeights: [FontWeight]?
    /// The tokens a style was assembled from, each as `role: token` (`font-weight: heading-font-weight`);
    /// empty for a style written as one token or value. `--explain` prints them.
    package var madeOf: [String] = []
    /// The font size in pixels, when the style gives one (`fontSize`); the emitters' text styles need it.
    package var size: Double?
    /// The line height as written (`24px`, `1.5`, `150%`), when the style gives one.
    package var lineHeight: LineHeight?

    package init(
        familyStack: [String], weight: FontWeight, style: FontStyle, origin: UseOrigin,
        supportedWeights: [FontWeight]? = nil
    ) {
        self.familyStack = familyStack
        self.weight = weight
        self.style = style
        self.origin = origin
        self.supportedWeights = supportedWeights
    }
}

/// Where a text style was declared: the file and the token path or Swift name, with its position.
package struct UseOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The input file.
    package var file: String
    /// The token path (`typography.heading.large`) or Swift name (`Typography.Label.large`).
    package var name: String
    /// Where in the file, when known.
    package var position: SourcePosition?

    package init(file: String, name: String, position: SourcePosition? = nil) {
        self.file = file
        self.name = name
        self.position = position
    }

    /// `file:line:column (name)`.
    package var description: String {
        if let position { return "\(file):\(position.line):\(position.column) (\(name))" }
        return "\(file) (\(name))"
    }
}

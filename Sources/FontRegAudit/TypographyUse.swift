import FontRegCore
import FontRegJSON

/// One text style of a design system reduced to what the audit needs: family stack, weight, style.
///
/// Readers of every input format produce these; "used" in the audit means "appears in a
/// `TypographyUse`", never merely "defined in a palette".
public struct TypographyUse: Sendable, Hashable {
    /// The family stack as declared, first entry the design's choice (`["Inter", "sans-serif"]`).
    public var familyStack: [String]
    /// The weight the style asks for, exactly as written (450 stays 450).
    public var weight: FontWeight
    /// `normal` or `italic` (an oblique request is kept as `oblique`).
    public var style: FontStyle
    /// Where the style was declared.
    public var origin: UseOrigin
    /// The weights the family supports for Bold Text, when the input says so
    /// (a custom YMatterType `FontFamily` overriding `supportedWeights`).
    public var supportedWeights: [FontWeight]?

    public init(
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
public struct UseOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The input file.
    public var file: String
    /// The token path (`typography.heading.large`) or Swift name (`Typography.Label.large`).
    public var name: String
    /// Where in the file, when known.
    public var position: SourcePosition?

    public init(file: String, name: String, position: SourcePosition? = nil) {
        self.file = file
        self.name = name
        self.position = position
    }

    /// `file:line:column (name)`.
    public var description: String {
        if let position { return "\(file):\(position.line):\(position.column) (\(name))" }
        return "\(file) (\(name))"
    }
}

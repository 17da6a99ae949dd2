/// What a renderer must fake because no registered face has it.
public struct Synthesis: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whether the renderer must embolden the face.
    public var bold: Bool
    /// Whether the renderer must slant the face.
    public var oblique: Bool
    /// The slant angle in degrees (positive leans right) when ``oblique`` is true.
    public var obliqueAngle: Double?

    /// Creates a synthesis; `obliqueAngle` is kept only when `oblique` is true.
    public init(bold: Bool = false, oblique: Bool = false, obliqueAngle: Double? = nil) {
        self.bold = bold
        self.oblique = oblique
        self.obliqueAngle = oblique ? (obliqueAngle ?? RequestedStyle.defaultObliqueAngle) : nil
    }

    /// Nothing to fake.
    public static let none = Synthesis()

    /// Whether anything must be faked.
    public var isEmpty: Bool { !bold && !oblique }

    /// `none`, `bold`, `oblique 14deg` or `bold, oblique 14deg`.
    public var description: String {
        var parts: [String] = []
        if bold { parts.append("bold") }
        if oblique { parts.append("oblique \(VariationSetting.format(obliqueAngle ?? 14))deg") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}

/// The naming rule of one family, in the FontRepresentable model: family + weight name → face name.
///
/// `"<familyName>-<weightName><italicSuffix>"`, with no separator between weight name and
/// suffix; an empty weight name gives `Family-Italic`, and both empty the bare `Family`.
public struct FamilyRule: Sendable, Hashable {
    /// An alternative name for the family, possibly deprecated (a renamed family).
    public struct Alias: Sendable, Hashable {
        /// The alternative name.
        public var name: String
        /// Whether resolving through this name warns that it is deprecated.
        public var deprecated: Bool
        /// Creates an alias.
        ///
        /// - Parameters:
        ///   - name: the alternative name.
        ///   - deprecated: whether using it warns.
        public init(name: String, deprecated: Bool) {
            self.name = name
            self.deprecated = deprecated
        }
    }

    /// The family as design systems and the fonts name it ("Avenir Next").
    public var family: String
    /// The root of every face name ("AvenirNext").
    public var familyName: String
    /// The weight name for each of the nine steps.
    public var weightNames: [Int: String]
    /// Appended to the weight name of italic faces.
    public var italicSuffix: String
    /// The weight steps this family has, lightest first; `nil` means "whatever is registered".
    public var supportedWeights: [Int]?
    /// How Bold Text picks the heavier weight for this family.
    public var boldPolicy: BoldTextPolicy
    /// Other names that resolve to this family.
    public var aliases: [Alias]
    /// Where the rule came from: a rule file's path, or a description of the default.
    public var source: String

    /// The default weight-name table: Thin, ExtraLight, Light, Regular, Medium, SemiBold, Bold, ExtraBold, Black.
    public static let defaultWeightNames: [Int: String] = [
        100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium",
        600: "SemiBold", 700: "Bold", 800: "ExtraBold", 900: "Black",
    ]

    /// Creates a rule in code, as a rule file would declare it.
    ///
    /// - Parameters:
    ///   - family: the family as design systems name it.
    ///   - familyName: the root of every face name.
    ///   - weightNames: the weight name of each of the nine steps.
    ///   - italicSuffix: appended to the weight name of italic faces.
    ///   - supportedWeights: the steps the family has, or `nil` for whatever is registered.
    ///   - boldPolicy: how Bold Text picks the heavier weight.
    ///   - aliases: other names that resolve to this family.
    ///   - source: where the rule came from, for traces.
    public init(
        family: String, familyName: String, weightNames: [Int: String] = FamilyRule.defaultWeightNames,
        italicSuffix: String = "Italic", supportedWeights: [Int]? = nil,
        boldPolicy: BoldTextPolicy = .nextHeavier, aliases: [Alias] = [], source: String = "default rule"
    ) {
        self.family = family
        self.familyName = familyName
        self.weightNames = weightNames
        self.italicSuffix = italicSuffix
        self.supportedWeights = supportedWeights
        self.boldPolicy = boldPolicy
        self.aliases = aliases
        self.source = source
    }

    /// The default rule for a family without a rule file: the default weight names, all weights.
    ///
    /// `familyName` is the part before the hyphen that the family's registered PostScript
    /// names share (`OpenSans` for `OpenSans-Bold`), else the family name without spaces.
    package static func defaultRule(for family: String, faces: [FaceRecord]) -> FamilyRule {
        var roots: [String: Int] = [:]
        for face in faces {
            let root =
                face.postscriptName.split(separator: "-", maxSplits: 1).first.map(String.init) ?? face.postscriptName
            roots[root, default: 0] += 1
        }
        let derived = roots.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        let root = derived ?? String(family.unicodeScalars.filter { $0 != " " })
        return FamilyRule(
            family: family, familyName: root,
            source: derived != nil
                ? "default rule (familyName \(root) taken from the registered PostScript names)" : "default rule")
    }

    /// The weight name of a step under this rule; `nil` for a weight that is not one of the nine steps.
    ///
    /// - Parameter weight: a weight on the OpenType scale.
    /// - Returns: the rule's name for the step (`Semibold`), or `nil`.
    public func weightName(for weight: Int) -> String? {
        guard weight % 100 == 0, (100...900).contains(weight) else { return nil }
        return weightNames[weight] ?? FamilyRule.defaultWeightNames[weight]
    }

    /// Composes the face name of a step and style, exactly as FontRepresentable does.
    ///
    /// - Parameters:
    ///   - weight: one of the nine steps.
    ///   - italic: whether to add the italic suffix.
    /// - Returns: `nil` when `weight` is not one of the nine steps.
    public func composedName(weight: Int, italic: Bool) -> String? {
        guard let weightName = weightName(for: weight) else { return nil }
        let suffix = weightName + (italic ? italicSuffix : "")
        return suffix.isEmpty ? familyName : "\(familyName)-\(suffix)"
    }
}

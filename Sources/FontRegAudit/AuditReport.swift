import FontRegCore
import FontRegJSON

/// The audit's answer for all inputs: per family and style, what to ship, what is missing, what to drop.
///
/// Encoded as the `--json` output with sorted keys; every field name below is a JSON key.
public struct AuditReport: Sendable, Hashable, Codable {
    /// The input files read.
    public var inputs: [String]
    /// The Bold Text policy applied (`next-heavier`, `ios-system`, `android`, `css-bolder`).
    public var boldPolicy: String
    /// The audited families, sorted by name.
    public var families: [FamilyAudit]
    /// Generic and system names found in stacks: not faces, so neither shipped nor missing.
    public var notAuditable: [NotAuditable]
    /// Things worth knowing: deprecated tokens left out, palette weights no style uses, off-grid decisions.
    public var notes: [String]
    /// Sums over all families.
    public var totals: AuditTotals
    /// Whether every required face exists (exit code 0).
    public var complete: Bool
}

/// One audited family: the first real family of the stacks that name it.
public struct FamilyAudit: Sendable, Hashable, Codable {
    /// The family as the design system spells it (first spelling met).
    public var family: String
    /// The family as registered, or `nil` when no face of it is registered.
    public var registeredFamily: String?
    /// Real families named after it in stacks; fallbacks, not audited.
    public var fallbacks: [String]
    /// The weights Bold Text may step to (`next-heavier`): the family's supported weights.
    public var supportedWeights: [Int]
    /// Registered families with a similar name, when this one is not registered.
    public var suggestions: [String]
    /// One entry per style the design uses or the registry has (`normal` before `italic`).
    public var styles: [StyleAudit]
    /// Sums for this family.
    public var totals: AuditTotals

    private enum CodingKeys: String, CodingKey {
        case family, registeredFamily, fallbacks, supportedWeights, suggestions, styles, totals
    }

    /// Encodes every key, `registeredFamily` as `null` when absent, so consumers see a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(family, forKey: .family)
        try container.encode(registeredFamily, forKey: .registeredFamily)
        try container.encode(fallbacks, forKey: .fallbacks)
        try container.encode(supportedWeights, forKey: .supportedWeights)
        try container.encode(suggestions, forKey: .suggestions)
        try container.encode(styles, forKey: .styles)
        try container.encode(totals, forKey: .totals)
    }
}

/// The audit of one family and style.
public struct StyleAudit: Sendable, Hashable, Codable {
    /// The family as the design system spells it.
    public var family: String
    /// `normal`, `italic` or `oblique`.
    public var style: String
    /// The weights text styles use, as written (450 stays 450), ascending.
    public var used: [Int]
    /// The weights Bold Text needs (after the off-grid rule), ascending.
    public var boldText: [Int]
    /// The weights that must be shipped: served used weights ∪ Bold Text weights, ascending.
    public var required: [Int]
    /// For each used weight: the weight that serves it, its Bold Text weight, and where it is used.
    public var weights: [WeightPlan]
    /// The face found for each required weight.
    public var faces: [ShippedFace]
    /// The required weights with no face of exactly that weight.
    public var missing: [MissingFace]
    /// Files of this family and style that no required weight uses.
    public var unneeded: [UnneededFile]
}

/// How one used weight is served and what Bold Text makes of it.
public struct WeightPlan: Sendable, Hashable, Codable {
    /// The weight as the design system writes it.
    public var used: Int
    /// The weight of the face that draws it (equal to `used` unless off the grid with no exact face).
    public var servedBy: Int
    /// The weight Bold Text asks for (policy applied to `servedBy`).
    public var boldText: Int
    /// The weight of the face that draws Bold Text.
    public var boldTextServedBy: Int
    /// Text styles using this weight, as `file:line:column (name)`.
    public var sources: [String]
}

/// A face to ship: the face of exactly the required weight (or a variable face covering it).
public struct ShippedFace: Sendable, Hashable, Codable {
    /// The required weight it serves.
    public var weight: Int
    /// `used`, `boldText` or both.
    public var roles: [String]
    /// The face's PostScript name.
    public var postscriptName: String
    /// The font file that holds the face.
    public var file: String
    /// The file's size.
    public var bytes: Int64
    /// Whether a variable font's range serves the weight.
    public var variable: Bool
}

/// A required weight with no face of exactly that weight.
public struct MissingFace: Sendable, Hashable, Codable {
    /// The required weight no face has.
    public var weight: Int
    /// `used`, `boldText` or both.
    public var roles: [String]
    /// The face that stands in today (CSS Fonts 4 matching in the family), or `nil` when the family has none.
    public var standIn: StandIn?
    /// What happens today, in words.
    public var reason: String

    private enum CodingKeys: String, CodingKey { case weight, roles, standIn, reason }

    /// Encodes every key, `standIn` as `null` when nothing stands in.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(weight, forKey: .weight)
        try container.encode(roles, forKey: .roles)
        try container.encode(standIn, forKey: .standIn)
        try container.encode(reason, forKey: .reason)
    }
}

/// The face that would be drawn instead of a missing one.
public struct StandIn: Sendable, Hashable, Codable {
    /// The PostScript name of the face drawn instead.
    public var postscriptName: String
    /// Its weight.
    public var weight: Int
    /// Its style: `normal`, `italic` or `oblique`.
    public var style: String
    /// Its file.
    public var file: String
}

/// A font file of an audited family that no required weight uses.
public struct UnneededFile: Sendable, Hashable, Codable {
    /// The font file.
    public var file: String
    /// Its size.
    public var bytes: Int64
    /// The PostScript names of the faces in the file.
    public var faces: [String]
    /// Their weights, ascending and distinct (a variable font's range shows as its two ends and its instances).
    public var weights: [Int]
}

/// A name in a family stack that is not a family with files.
public struct NotAuditable: Sendable, Hashable, Codable {
    /// The name as written in the stack.
    public var name: String
    /// Why it is not audited.
    public var reason: String
    /// The text styles whose stacks name it.
    public var usedBy: [String]
}

/// Counts and sizes.
public struct AuditTotals: Sendable, Hashable, Codable {
    /// Required (family, style, weight) triples.
    public var requiredFaces: Int = 0
    /// Required triples with a face of exactly that weight.
    public var foundFaces: Int = 0
    /// Required triples without one.
    public var missingFaces: Int = 0
    /// Distinct files to ship and their total size.
    public var shipFiles: Int = 0
    /// The total size of the files to ship.
    public var shipBytes: Int64 = 0
    /// Distinct files that can be dropped and their total size.
    public var unneededFiles: Int = 0
    /// The total size of the files to drop.
    public var unneededBytes: Int64 = 0

    public init() {}
}

import FontRegCore

/// The audit's answer for all inputs: per family and style, what to ship, what is missing, what to drop.
///
/// Encoded as the `--json` output with sorted keys; every field name below is a JSON key.
package struct AuditReport: Sendable, Hashable, Codable {
    /// The input files read.
    package var inputs: [String]
    /// The Bold Text policy applied (`next-heavier`, `ios-system`, `android`, `css-bolder`).
    package var boldPolicy: BoldTextPolicy
    /// The audited families, sorted by name.
    package var families: [FamilyAudit]
    /// Generic and system names found in stacks: not faces, so neither shipped nor missing.
    package var notAuditable: [NotAuditable]
    /// Things worth knowing: deprecated tokens left out, palette weights no style uses, off-grid decisions.
    package var notes: [String]
    /// Sums over all families.
    package var totals: AuditTotals
    /// Whether every required face exists and every sample character is drawn (exit code 0).
    ///
    /// Never true when nothing was audited (no text style found): see ``status``.
    package var complete: Bool
    /// `complete`, `incomplete` (a face or a character is missing, exit 1) or `nothingAudited`
    /// (no text style in any input, exit 65).
    package var status: AuditStatus = .complete
    /// Input files that contribute no text style (each a warning; all of them: ``AuditStatus/nothingAudited``).
    package var unusedInputs: [String] = []
    /// Families the inputs declare (`fontFamily` tokens) that no text style uses.
    package var unusedFamilies: [UnusedFamily] = []
    /// The shipped variable fonts: the `wght` range used and what instancing would save.
    package var variableFonts: [VariableFontUse] = []
    /// The languages (`--lang`, `$locales`) the coverage check was asked for; `nil` (absent) when none were.
    package var languages: [String]? = nil
    /// The sample texts (`--sample`, `$samples`) the coverage check was asked for; `nil` (absent) when none were.
    package var samples: [String]? = nil
    /// Required faces that lack sample characters or languages and what stands in (issue 12); `nil` when not asked.
    package var coverage: [CoverageGap]? = nil
}

/// How an audit ended: what the exit code and every output format's summary say.
package enum AuditStatus: String, Sendable, Hashable, Codable {
    /// Every required face is there and every sample character is drawn (exit 0).
    case complete
    /// A required face is missing, or no registered face draws a sample character (exit 1).
    case incomplete
    /// No input holds a text style, so nothing was checked (exit 65, `EX_DATAERR`); never success.
    case nothingAudited
}

/// A family the inputs declare that no text style uses: not audited, not shipped.
package struct UnusedFamily: Sendable, Hashable, Codable {
    /// The family as declared.
    package var family: String
    /// Where it is declared, as `file:line:column (token path)`.
    package var declaredAt: [String]
}

/// One audited family: the first real family of the stacks that name it.
package struct FamilyAudit: Sendable, Hashable, Codable {
    /// The family as the design system spells it (first spelling met).
    package var family: String
    /// The family as registered, or `nil` when no face of it is registered.
    package var registeredFamily: String?
    /// Real families named after it in stacks; fallbacks, not audited.
    package var fallbacks: [String]
    /// The weights Bold Text may step to (`next-heavier`): the family's supported weights.
    package var supportedWeights: [Int]
    /// Registered families with a similar name, when this one is not registered.
    package var suggestions: [String]
    /// One entry per style the design uses or the registry has (`normal` before `italic`).
    package var styles: [StyleAudit]
    /// Sums for this family.
    package var totals: AuditTotals

    private enum CodingKeys: String, CodingKey {
        case family, registeredFamily, fallbacks, supportedWeights, suggestions, styles, totals
    }

    /// Encodes every key, `registeredFamily` as `null` when absent, so consumers see a stable shape.
    package func encode(to encoder: any Encoder) throws {
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
package struct StyleAudit: Sendable, Hashable, Codable {
    /// The family as the design system spells it.
    package var family: String
    /// `normal`, `italic` or `oblique`.
    package var style: String
    /// The weights text styles use, as written (450 stays 450), ascending.
    package var used: [Int]
    /// The weights Bold Text needs (after the off-grid rule), ascending.
    package var boldText: [Int]
    /// The weights that must be shipped: served used weights ∪ Bold Text weights, ascending.
    package var required: [Int]
    /// For each used weight: the weight that serves it, its Bold Text weight, and where it is used.
    package var weights: [WeightPlan]
    /// The face found for each required weight.
    package var faces: [ShippedFace]
    /// The required weights with no face of exactly that weight.
    package var missing: [MissingFace]
    /// Files of this family and style that no required weight uses.
    package var unneeded: [UnneededFile]
    /// Faces shipped because they stand in for a missing required weight (the 700 for a missing 600).
    ///
    /// Each entry's `weight` is the missing required weight it serves; its face and file are the
    /// stand-in's. These files are shipped by every emitter and `--copy-fonts`, never dropped.
    package var standIns: [ShippedFace] = []
}

/// How one used weight is served and what Bold Text makes of it.
package struct WeightPlan: Sendable, Hashable, Codable {
    /// The weight as the design system writes it.
    package var used: Int
    /// The weight of the face that draws it (equal to `used` unless off the grid with no exact face).
    package var servedBy: Int
    /// The weight Bold Text asks for (policy applied to `servedBy`).
    package var boldText: Int
    /// The weight of the face that draws Bold Text.
    package var boldTextServedBy: Int
    /// Text styles using this weight, as `file:line:column (name)`.
    package var sources: [String]
}

/// A face to ship: the face of exactly the required weight (or a variable face covering it).
package struct ShippedFace: Sendable, Hashable, Codable {
    /// The required weight it serves.
    package var weight: Int
    /// `used`, `boldText` or both.
    package var roles: [String]
    /// The face's PostScript name.
    package var postscriptName: String
    /// The font file that holds the face.
    package var file: String
    /// The file's size.
    package var bytes: Int64
    /// Whether a variable font's range serves the weight.
    package var variable: Bool
}

/// A required weight with no face of exactly that weight.
package struct MissingFace: Sendable, Hashable, Codable {
    /// The required weight no face has.
    package var weight: Int
    /// `used`, `boldText` or both.
    package var roles: [String]
    /// The face that stands in today (CSS Fonts 4 matching in the family), or `nil` when the family has none.
    package var standIn: StandIn?
    /// What happens today, in words.
    package var reason: String

    private enum CodingKeys: String, CodingKey { case weight, roles, standIn, reason }

    /// Encodes every key, `standIn` as `null` when nothing stands in.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(weight, forKey: .weight)
        try container.encode(roles, forKey: .roles)
        try container.encode(standIn, forKey: .standIn)
        try container.encode(reason, forKey: .reason)
    }
}

/// The face that would be drawn instead of a missing one.
package struct StandIn: Sendable, Hashable, Codable {
    /// The PostScript name of the face drawn instead.
    package var postscriptName: String
    /// Its weight.
    package var weight: Int
    /// Its style: `normal`, `italic` or `oblique`.
    package var style: String
    /// Its file.
    package var file: String
}

/// A font file of an audited family that no required weight uses.
package struct UnneededFile: Sendable, Hashable, Codable {
    /// The font file.
    package var file: String
    /// Its size.
    package var bytes: Int64
    /// The PostScript names of the faces in the file.
    package var faces: [String]
    /// Their weights, ascending and distinct (a variable font's range shows as its two ends and its instances).
    package var weights: [Int]
}

/// A name in a family stack that is not a family with files.
package struct NotAuditable: Sendable, Hashable, Codable {
    /// The name as written in the stack.
    package var name: String
    /// Why it is not audited.
    package var reason: String
    /// The text styles whose stacks name it.
    var usedBy: [String]
}

/// Counts and sizes.
package struct AuditTotals: Sendable, Hashable, Codable {
    /// Required (family, style, weight) triples.
    var requiredFaces: Int = 0
    /// Required triples with a face of exactly that weight.
    var foundFaces: Int = 0
    /// Required triples without one.
    package var missingFaces: Int = 0
    /// Distinct files to ship and their total size.
    package var shipFiles: Int = 0
    /// The total size of the files to ship.
    package var shipBytes: Int64 = 0
    /// Distinct files that can be dropped and their total size.
    package var unneededFiles: Int = 0
    /// The total size of the files to drop.
    package var unneededBytes: Int64 = 0

    package init() {}
}

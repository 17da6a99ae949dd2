/// The resolver's answer: the face, how it was found, and a trace of every step in plain words.
public struct Resolution: Sendable, Hashable, Codable {
    /// How the face was found.
    public enum MatchKind: String, Sendable, Hashable, Codable {
        /// The composed face name matched a registered PostScript name.
        case exactName = "exact-name"
        /// A face of the family with exactly the effective weight and style (or a variable face covering it).
        case familyWeight = "family-weight"
        /// The nearest face of the family by the CSS Fonts 4 rules: a substitution.
        case nearestWeight = "nearest-weight"
        /// The family is not registered; fontconfig's system sans-serif stands in.
        case systemFallback = "system-fallback"
    }

    /// The face that serves the query.
    public var face: FaceRecord
    /// The face name composed from the family rule (`Family-WeightSuffix`); `nil` for a weight off the nine steps.
    public var composedName: String?
    /// How the face was found.
    public var match: MatchKind
    /// The weight the query asked for.
    public var requestedWeight: Int
    /// The weight after Bold Text.
    public var effectiveWeight: Int
    /// The family the query resolved to after aliases (the registered family name, when there is one).
    public var resolvedFamily: String
    /// The Bold Text policy applied, when Bold Text was on.
    public var boldPolicy: BoldTextPolicy?
    /// The axis values the renderer must set on a variable face, in the file's axis order; empty for a static face.
    public var variations: [VariationSetting]
    /// What the renderer must fake (bold, oblique) because no face has it.
    public var synthesis: Synthesis
    /// Each step the resolver took, as data.
    public var steps: [ResolveStep]
    /// Things the caller should know, as data.
    public var notes: [ResolveWarning]

    /// The weight the text is drawn at: the `wght` value set on a variable face, else the face's weight.
    public var weight: Int {
        if let wght = variations.first(where: { $0.tag == "wght" }) { return Int(wght.value.rounded()) }
        return face.weight
    }

    /// Each step the resolver took, in plain words.
    public var trace: [String] { steps.map(\.description) }
    /// Things the caller should know: a deprecated alias, a missing ideal Bold Text step, a substitution.
    public var warnings: [String] { notes.map(\.description) }

    /// Creates a resolution from words, as a reply from the daemon carries them.
    ///
    /// - Parameters:
    ///   - face: the face that serves the query.
    ///   - composedName: the face name composed from the family rule.
    ///   - match: how the face was found.
    ///   - requestedWeight: the weight the query asked for.
    ///   - effectiveWeight: the weight after Bold Text.
    ///   - resolvedFamily: the family after aliases.
    ///   - boldPolicy: the Bold Text policy applied.
    ///   - trace: the resolver's steps in words.
    ///   - warnings: the warnings in words.
    ///   - variations: the axis values to set on a variable face.
    ///   - synthesis: what the renderer must fake.
    public init(
        face: FaceRecord, composedName: String?, match: MatchKind, requestedWeight: Int,
        effectiveWeight: Int, resolvedFamily: String, boldPolicy: BoldTextPolicy?,
        trace: [String], warnings: [String], variations: [VariationSetting] = [], synthesis: Synthesis = .none
    ) {
        self.init(
            face: face, composedName: composedName, match: match, requestedWeight: requestedWeight,
            effectiveWeight: effectiveWeight, resolvedFamily: resolvedFamily, boldPolicy: boldPolicy,
            steps: trace.map { .text($0) }, notes: warnings.map { .text($0) })
        self.variations = variations
        self.synthesis = synthesis
    }

    /// Creates a resolution from recorded steps; the resolver's own initializer.
    init(
        face: FaceRecord, composedName: String?, match: MatchKind, requestedWeight: Int, effectiveWeight: Int,
        resolvedFamily: String, boldPolicy: BoldTextPolicy?, steps: [ResolveStep], notes: [ResolveWarning],
        variations: [VariationSetting] = [], synthesis: Synthesis = .none
    ) {
        self.face = face
        self.composedName = composedName
        self.match = match
        self.requestedWeight = requestedWeight
        self.effectiveWeight = effectiveWeight
        self.resolvedFamily = resolvedFamily
        self.boldPolicy = boldPolicy
        self.variations = variations
        self.synthesis = synthesis
        self.steps = steps
        self.notes = notes
    }

    private enum CodingKeys: String, CodingKey {
        case face, composedName, match, requestedWeight, effectiveWeight, resolvedFamily, boldPolicy, trace, warnings
        case variations, synthesis
    }

    /// Decodes a resolution from its JSON form (steps and warnings as text).
    ///
    /// - Throws: `DecodingError` when a key is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            face: try c.decode(FaceRecord.self, forKey: .face),
            composedName: try c.decodeIfPresent(String.self, forKey: .composedName),
            match: try c.decode(MatchKind.self, forKey: .match),
            requestedWeight: try c.decode(Int.self, forKey: .requestedWeight),
            effectiveWeight: try c.decode(Int.self, forKey: .effectiveWeight),
            resolvedFamily: try c.decode(String.self, forKey: .resolvedFamily),
            boldPolicy: try c.decodeIfPresent(BoldTextPolicy.self, forKey: .boldPolicy),
            trace: try c.decode([String].self, forKey: .trace),
            warnings: try c.decode([String].self, forKey: .warnings),
            variations: try c.decodeIfPresent([VariationSetting].self, forKey: .variations) ?? [],
            synthesis: try c.decodeIfPresent(Synthesis.self, forKey: .synthesis) ?? .none)
    }

    /// Encodes the resolution with its steps and warnings in words.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(face, forKey: .face)
        try c.encodeIfPresent(composedName, forKey: .composedName)
        try c.encode(match, forKey: .match)
        try c.encode(requestedWeight, forKey: .requestedWeight)
        try c.encode(effectiveWeight, forKey: .effectiveWeight)
        try c.encode(resolvedFamily, forKey: .resolvedFamily)
        try c.encodeIfPresent(boldPolicy, forKey: .boldPolicy)
        try c.encode(trace, forKey: .trace)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(variations, forKey: .variations)
        try c.encode(synthesis, forKey: .synthesis)
    }
}

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
    /// Each step the resolver took, in plain words.
    public var trace: [String]
    /// Things the caller should know: a deprecated alias, a missing ideal Bold Text step, a substitution.
    public var warnings: [String]

    public init(
        face: FaceRecord, composedName: String?, match: MatchKind, requestedWeight: Int,
        effectiveWeight: Int, resolvedFamily: String, boldPolicy: BoldTextPolicy?,
        trace: [String], warnings: [String]
    ) {
        self.face = face
        self.composedName = composedName
        self.match = match
        self.requestedWeight = requestedWeight
        self.effectiveWeight = effectiveWeight
        self.resolvedFamily = resolvedFamily
        self.boldPolicy = boldPolicy
        self.trace = trace
        self.warnings = warnings
    }
}

/// The flat JSON shape of a ``Resolution``, shared by `fontresolve resolve --json` and the daemon's `Resolve` reply.
///
/// Keys are stable. `match` and `boldPolicy` stay enums until written; their raw values are the wire spelling.
public struct ResolutionReply: Sendable, Hashable, Codable {
    /// The PostScript name of the face found.
    public var postscriptName: String
    /// The path of the font file.
    public var file: String
    /// The face index inside the file.
    public var index: Int
    /// The named-instance number of a variable font (1-based), when the face is one.
    public var instance: Int?
    /// The weight the text is drawn at: the `wght` value set on a variable face, else the face's weight.
    public var weight: Int
    /// The axis values the renderer must set, from tag to user-space value (`{"wght": 650}`); empty for a static face.
    public var variations: [String: Double]
    /// What the renderer must fake.
    public var synthesis: Synthesis
    /// Whether the face found is italic.
    public var italic: Bool
    /// The family of the face found.
    public var family: String
    /// How the face was found.
    public var match: Resolution.MatchKind
    /// The face name composed from the family rule, when the weight is a step.
    public var composedName: String?
    /// The weight the query asked for.
    public var requestedWeight: Int
    /// The weight after Bold Text.
    public var effectiveWeight: Int
    /// The family the query resolved to after aliases.
    public var resolvedFamily: String
    /// The Bold Text policy applied, when Bold Text was on.
    public var boldPolicy: BoldTextPolicy?
    /// Each step the resolver took, in plain words.
    public var trace: [String]
    /// Things the caller should know.
    public var warnings: [String]
    /// The whole face record.
    public var face: FaceRecord

    /// Flattens a resolution.
    ///
    /// - Parameter resolution: the resolver's answer.
    public init(_ resolution: Resolution) {
        let face = resolution.face
        postscriptName = face.postscriptName
        file = face.file
        index = face.index
        instance = face.instance
        weight = resolution.weight
        variations = Dictionary(resolution.variations.map { ($0.tag, $0.value) }) { _, last in last }
        synthesis = resolution.synthesis
        italic = face.italic
        family = face.family
        match = resolution.match
        composedName = resolution.composedName
        requestedWeight = resolution.requestedWeight
        effectiveWeight = resolution.effectiveWeight
        resolvedFamily = resolution.resolvedFamily
        boldPolicy = resolution.boldPolicy
        trace = resolution.trace
        warnings = resolution.warnings
        self.face = face
    }
}

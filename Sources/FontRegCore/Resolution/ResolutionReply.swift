import FontRegJSON
import FontRegSystem

/// The flat JSON shape of a ``Resolution``, shared by `fontresolve resolve --json` and the daemon's `Resolve` reply.
///
/// Keys are stable. `match` and `boldPolicy` stay enums until written; their raw values are the wire spelling.
public struct ResolutionReply: Sendable, Hashable, Codable {
    public var postscriptName: String
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
    public var italic: Bool
    public var family: String
    /// How the face was found.
    public var match: Resolution.MatchKind
    public var composedName: String?
    public var requestedWeight: Int
    public var effectiveWeight: Int
    public var resolvedFamily: String
    /// The Bold Text policy applied, when Bold Text was on.
    public var boldPolicy: BoldTextPolicy?
    public var trace: [String]
    public var warnings: [String]
    /// The whole face record.
    public var face: FaceRecord

    /// The flat form of a resolution.
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

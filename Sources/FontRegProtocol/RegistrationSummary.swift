import FontRegCore

/// One registration as `GetStatus` reports it: path, owner, scope (issue 15).
public struct RegistrationSummary: Sendable, Hashable, Codable {
    /// The registered file or directory.
    public var path: String
    /// The uid that registered it (0 for configured directories).
    public var owner: Int
    /// `connection`, `session` or `persistent`.
    public var scope: String
    /// Whether its faces are the owner's own, seen by the owner's queries only.
    public var `private`: Bool

    /// A registration with every field given.
    public init(path: String, owner: Int, scope: String, private isPrivate: Bool) {
        self.path = path
        self.owner = owner
        self.scope = scope
        self.private = isPrivate
    }
}

/// Something disabled, as `GetStatus` reports it (issue 15).
public struct DisabledSummary: Sendable, Hashable, Codable {
    /// `face`, `file` or `family`.
    public var kind: String
    /// The PostScript name, path or family name.
    public var value: String
    /// The uid that disabled it.
    public var owner: Int
    /// Whether an administrator disabled it for everyone (`global` before; a keyword in Python).
    public var systemWide: Bool

    /// An entry with every field given.
    public init(kind: String, value: String, owner: Int, systemWide: Bool) {
        self.kind = kind
        self.value = value
        self.owner = owner
        self.systemWide = systemWide
    }
}

/// The reply of `Enable` and `Disable`: what was named and the faces it covers (issue 15).
public struct EnablementReport: Sendable, Hashable, Codable {
    /// `face`, `file` or `family`.
    public var kind: String
    /// The target as the daemon understood it.
    public var target: String
    /// The faces enabled or disabled.
    public var faces: [FaceRecord]

    /// A report with every field given.
    public init(kind: String, target: String, faces: [FaceRecord]) {
        self.kind = kind
        self.target = target
        self.faces = faces
    }
}

/// A user's Bold Text setting (`GetBoldText`, `SetBoldText`; issue 15).
public struct BoldTextSetting: Sendable, Hashable, Codable {
    /// Whether Bold Text is on for queries that do not say.
    public var boldText: Bool
    /// `user` (set with `fontresolve bold-text`) or `default` (the daemon's configuration).
    public var source: String
    /// The configured policy of queries that name none, if any.
    public var boldPolicy: String?

    /// A setting with every field given.
    public init(boldText: Bool, source: String, boldPolicy: String? = nil) {
        self.boldText = boldText
        self.source = source
        self.boldPolicy = boldPolicy
    }
}

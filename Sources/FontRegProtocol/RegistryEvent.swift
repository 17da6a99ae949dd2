import FontRegCore

/// One event of `fontresolve watch`: the state when watching starts, then each change (the daemon's `Monitor` reply).
public struct RegistryEvent: Sendable, Hashable, Codable {
    /// What an event reports; the raw values are the wire spelling.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The first event: the state when watching starts.
        case subscribed
        /// A change of the registry.
        case changed
        /// A Bold Text setting changed (issue 15): resolve again to pick it up.
        case preferences
    }

    /// `subscribed` for the first event, `changed` for each change.
    public var event: Kind
    /// The index generation after the event.
    public var generation: Int
    /// Registered faces after the event.
    public var faces: Int
    /// Faces the change added.
    public var added: [FaceRecord]
    /// Faces the change removed.
    public var removed: [FaceRecord]

    /// An event with its counts and the faces it added and removed.
    public init(event: Kind, generation: Int, faces: Int, added: [FaceRecord] = [], removed: [FaceRecord] = []) {
        self.event = event
        self.generation = generation
        self.faces = faces
        self.added = added
        self.removed = removed
    }
}

import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegService
import FontRegSystem
import Varlink

/// One event of `fontresolve watch`: the state when watching starts, then each change (the daemon's `Monitor` reply).
public struct RegistryEvent: Sendable, Hashable, Codable {
    /// `subscribed` for the first event, `changed` for each change.
    public var event: String
    /// The index generation after the event.
    public var generation: Int
    /// Registered faces after the event.
    public var faces: Int
    /// Faces the change added.
    public var added: [FaceRecord]
    /// Faces the change removed.
    public var removed: [FaceRecord]

    public init(event: String, generation: Int, faces: Int, added: [FaceRecord] = [], removed: [FaceRecord] = []) {
        self.event = event
        self.generation = generation
        self.faces = faces
        self.added = added
        self.removed = removed
    }
}

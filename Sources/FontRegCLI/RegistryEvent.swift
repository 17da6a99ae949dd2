import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

/// One event of `fontresolve watch`: the state when watching starts, then each change (the daemon's `Monitor` reply).
package struct RegistryEvent: Sendable, Hashable, Codable {
    /// `subscribed` for the first event, `changed` for each change.
    package var event: String
    /// The index generation after the event.
    package var generation: Int
    /// Registered faces after the event.
    package var faces: Int
    /// Faces the change added.
    package var added: [FaceRecord]
    /// Faces the change removed.
    package var removed: [FaceRecord]

    package init(event: String, generation: Int, faces: Int, added: [FaceRecord] = [], removed: [FaceRecord] = []) {
        self.event = event
        self.generation = generation
        self.faces = faces
        self.added = added
        self.removed = removed
    }
}

import FontRegJSON
import FontRegSystem

/// A Varlink service the server dispatches calls to.
///
/// `handle` runs on an event-loop thread: it must not block. Anything slow returns
/// ``CallOutcome/deferred(_:)``.
package protocol VarlinkService: Sendable {
    /// The service's description and interfaces, for `org.varlink.service`.
    var introspection: VarlinkIntrospection { get }

    /// Answers a call to one of the service's own interfaces.
    func handle(_ call: VarlinkCall, peer: PeerCredentials) -> CallOutcome
}

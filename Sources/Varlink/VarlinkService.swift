/// A Varlink service the server dispatches calls to.
///
/// `handle` runs on an event-loop thread: it must not block. Anything slow returns
/// ``CallOutcome/deferred(_:)``.
package protocol VarlinkService: Sendable {
    /// The service's description and interfaces, for `org.varlink.service`.
    var introspection: VarlinkIntrospection { get }

    /// Answers a call to one of the service's own interfaces.
    func handle(_ call: VarlinkCall, peer: PeerCredentials) -> CallOutcome

    /// Called after the server closed a connection; see the default implementation.
    func connectionClosed(_ peer: PeerCredentials)

    /// Whole replies kept by request bytes (issue 13); `nil` (the default) replays nothing.
    var replayCache: MessageReplyCache? { get }

    /// Changes whenever a peer's ``replayScope(for:)`` may have changed; the connection computes
    /// its scope again then. The default never changes.
    var replayScopeStamp: UInt64 { get }

    /// The scope in which `peer`'s replayable calls are looked up in ``replayCache``, or `nil` when
    /// nothing may be replayed to it; must match the scope of ``CallOutcome/replayable(_:scope:)``
    /// that the same state gives.
    func replayScope(for peer: PeerCredentials) -> String?

    /// Whether `peer`'s deferred calls (changes) are paced on the change worker while others
    /// change too (issue 24); see the default implementation.
    func pacesChanges(of peer: PeerCredentials) -> Bool
}

extension VarlinkService {
    /// Called by the server on the connection's event-loop thread after it closed a connection
    /// (the client hung up, was killed, or was disconnected); must not block. Does nothing unless
    /// the service keeps state per connection (issue 15: connection-scoped registrations).
    ///
    /// - Parameter peer: the credentials the connection's calls carried, with its ``PeerCredentials/connection``.
    package func connectionClosed(_ peer: PeerCredentials) {}

    /// No peer's changes are paced: they take their turns only.
    package func pacesChanges(of peer: PeerCredentials) -> Bool { false }
}

extension VarlinkService {
    /// No replay cache.
    package var replayCache: MessageReplyCache? { nil }

    /// Never changes.
    package var replayScopeStamp: UInt64 { 0 }

    /// Nothing is replayed.
    package func replayScope(for peer: PeerCredentials) -> String? { nil }
}

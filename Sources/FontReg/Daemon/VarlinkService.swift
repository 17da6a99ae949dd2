/// What a service decided to do with one call.
public enum CallOutcome: Sendable {
    /// Reply with these parameters.
    case reply([String: JSONValue])
    /// Reply with parameters already serialized as a JSON object (from a cache).
    case encodedReply([UInt8])
    /// Reply with this error.
    case failure(VarlinkError)
    /// Work that may block (scanning, disk writes): it runs on the daemon's serial worker, off the
    /// event loops, and the connection's later calls wait for it so replies stay in order.
    case deferred(@Sendable () -> Result<[String: JSONValue], VarlinkError>)
    /// Start a `more` stream: this first reply, then every ``VarlinkServer/broadcast(_:)``.
    case subscribe(first: [String: JSONValue])
}

/// A Varlink service the server dispatches calls to.
///
/// `handle` runs on an event-loop thread: it must not block. Anything slow returns
/// ``CallOutcome/deferred(_:)``.
public protocol VarlinkService: Sendable {
    /// The service's description and interfaces, for `org.varlink.service`.
    var introspection: VarlinkIntrospection { get }

    /// Answers a call to one of the service's own interfaces.
    func handle(_ call: VarlinkCall, peer: PeerCredentials) -> CallOutcome
}

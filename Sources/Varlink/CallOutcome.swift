import FontRegJSON
import FontRegSystem

/// What a service decided to do with one call.
package enum CallOutcome: Sendable {
    /// Reply with these parameters.
    case reply([String: JSONValue])
    /// Reply with parameters already serialized as a JSON object (from a cache).
    case encodedReply([UInt8])
    /// Reply with this error.
    case failure(VarlinkError)
    /// Work that may block (scanning, disk writes): it runs on the daemon's serial worker, off the
    /// event loops, and the connection's later calls wait for it so replies stay in order.
    case deferred(@Sendable () -> Result<[String: JSONValue], VarlinkError>)
    /// A query that only reads but may take long (a large batch): it runs on the daemon's query
    /// worker, a thread apart from the event loops and from the change worker, so that it holds
    /// up neither other connections nor registrations. The connection's later calls wait for it.
    /// The work returns the reply parameters serialized as a JSON object.
    case offloaded(@Sendable () -> Result<[UInt8], VarlinkError>)
    /// Start a `more` stream: this first reply, then every event the server broadcasts.
    case subscribe(first: [String: JSONValue])
    // Issue 15 (OpenFace): descriptors passed with a reply.
    /// Reply with these parameters and send `descriptors` with the reply's first byte (`SCM_RIGHTS`),
    /// as systemd's sd-varlink does; the parameters name them by index. When the connection already
    /// holds ``VarlinkConnection/maximumPendingDescriptors`` unsent, `overLimit` is the reply instead.
    case replyWithDescriptors([String: JSONValue], descriptors: [FileDescriptor], overLimit: VarlinkError)
    /// A reply that is a pure function of the request's bytes and `scope` (issue 13): answered as
    /// `outcome` is (a reply, an encoded reply or a failure; anything else is answered but not
    /// kept), and kept in the service's ``MessageReplyCache`` so that the same bytes from a caller
    /// in the same scope are answered from it. The scope must be derived from the very state the
    /// reply was computed from.
    indirect case replayable(CallOutcome, scope: String)
}

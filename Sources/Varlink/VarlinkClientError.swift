import FontRegSystem

/// What went wrong talking to a Varlink service as a client.
public enum VarlinkClientError: Error, Sendable, CustomStringConvertible {
    /// The socket could not be reached.
    case cannotConnect(path: String, SystemError)
    /// Sending or receiving failed.
    case io(SystemError)
    /// The service closed the connection before a reply arrived.
    case connectionClosed
    /// No reply arrived within the timeout.
    case timedOut(seconds: Double)
    /// The service sent something that is not a Varlink reply.
    case malformedReply(VarlinkProtocolError)
    /// The service answered with a Varlink error.
    case remote(VarlinkError)

    /// What went wrong, for a person.
    ///
    /// It names no program and no option: which service listens where, and how to point a
    /// client at it, is the client's advice to give (`fontresolve` adds it).
    public var description: String {
        switch self {
        case .cannotConnect(let path, let error):
            return "cannot connect to \(path) (\(error)); no service accepted the connection there"
        case .io(let error):
            return "connection to the service failed: \(error)"
        case .connectionClosed:
            return "the service closed the connection before replying"
        case .timedOut(let seconds):
            return "no reply within \(seconds) s; the service may be overloaded or stuck"
        case .malformedReply(let error):
            return "the service sent a malformed reply: \(error)"
        case .remote(let error):
            return error.description
        }
    }
}

import FontRegSystem
import Varlink

/// One client connection as its event loop holds it: the socket and what epoll and the idle
/// check need, around the protocol state (``VarlinkConnection``), which decides everything else.
///
/// Only the loop that accepted it touches it, so it needs no lock.
final class Connection {
    /// The loop-wide identifier, also the epoll user datum.
    let id: UInt64
    /// The connected socket.
    let fd: Int32
    /// The protocol state: framing, calls, replies, limits.
    var state: VarlinkConnection
    /// When the connection last received bytes, in monotonic microseconds.
    var lastActivity: UInt64
    /// The epoll events currently registered.
    var registeredEvents: UInt32

    /// Wraps an accepted socket.
    init(id: UInt64, fd: Int32, state: VarlinkConnection, now: UInt64, events: UInt32) {
        self.id = id
        self.fd = fd
        self.state = state
        self.lastActivity = now
        self.registeredEvents = events
    }

    /// Who connected.
    var peer: PeerCredentials { state.peer }
}

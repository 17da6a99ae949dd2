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
    /// Since when the message now arriving has been incomplete, in monotonic microseconds
    /// (`nil` when no message is partly received); the idle timeout bounds it too.
    private(set) var partialMessageSince: UInt64?
    /// ``VarlinkConnection/messagesReceived`` when ``partialMessageSince`` was set.
    private var messagesAtPartial = 0

    /// Wraps an accepted socket.
    init(id: UInt64, fd: Int32, state: VarlinkConnection, now: UInt64, events: UInt32) {
        self.id = id
        self.fd = fd
        self.state = state
        self.lastActivity = now
        self.registeredEvents = events
    }

    /// Records whether a message is partly received after the connection answered what it could:
    /// the clock starts at the first partial message and restarts each time a message completes.
    func notePartialMessage(now: UInt64) {
        guard state.hasPartialMessage else {
            partialMessageSince = nil
            return
        }
        if partialMessageSince == nil || state.messagesReceived != messagesAtPartial {
            partialMessageSince = now
            messagesAtPartial = state.messagesReceived
        }
    }

    /// The unsent bytes last added to ``ServerShared/unsentBytes`` for this connection.
    var reportedOutput = 0
    /// The input-buffer bytes last charged to ``ServerShared/input`` for this connection.
    var reportedInput = 0

    /// Who connected.
    var peer: PeerCredentials { state.peer }
}

import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Varlink

/// One client connection's state, owned by the event loop that accepted it.
///
/// Only that loop's thread touches it, so it needs no lock.
final class Connection {
    /// The loop-wide identifier, also the epoll user datum.
    let id: UInt64
    /// The connected socket.
    let fd: Int32
    /// Who connected.
    let peer: PeerCredentials
    /// Received bytes, split into messages.
    var framer: MessageFramer
    /// Replies not yet written.
    var outbox: [UInt8] = []
    /// How much of ``outbox`` has been written.
    var outboxSent = 0
    /// A deferred call is running; later calls wait for its reply.
    var busy = false
    /// The connection follows `Monitor`: it gets every broadcast and makes no more calls.
    var subscribed = false
    /// Close once the outbox is written (after a protocol error, or when the peer stopped sending).
    var closeWhenFlushed = false
    /// The peer shut down its sending side.
    var peerClosed = false
    /// When the connection last received bytes, in monotonic microseconds.
    var lastActivity: UInt64
    /// The epoll events currently registered.
    var registeredEvents: UInt32

    init(id: UInt64, fd: Int32, peer: PeerCredentials, maximumMessageSize: Int, now: UInt64, events: UInt32) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.framer = MessageFramer(maximumMessageSize: maximumMessageSize)
        self.lastActivity = now
        self.registeredEvents = events
    }

    /// Bytes of replies waiting to be written.
    var pendingOutput: Int { outbox.count - outboxSent }

    /// Queues a reply.
    func enqueue(_ reply: VarlinkReply) {
        reply.write(to: &outbox)
    }
}

import FontRegJSON
import FontRegSystem

/// Who is on the other end of a Unix socket connection, as the kernel reports it (`SO_PEERCRED`).
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id when it connected.
    public let pid: Int32
    /// The peer's effective user id.
    public let uid: UInt32
    /// The peer's effective (primary) group id.
    public let gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads the credentials of the peer of a connected socket.
    ///
    /// The corresponding call is `getsockopt(SO_PEERCRED)`.
    /// - Throws: ``SystemError`` when the descriptor is not a connected Unix socket.
    public init(socket fd: Int32) throws(SystemError) {
        let peer = try UnixSocket.peerCredentials(fd)
        self.init(pid: peer.pid, uid: peer.uid, gid: peer.gid)
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

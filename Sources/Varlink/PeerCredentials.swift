import FontRegJSON
import FontRegSystem

/// Who is on the other end of a Unix socket connection, as the kernel reports it (`SO_PEERCRED`).
package struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id when it connected.
    package let pid: Int32
    /// The peer's effective user id.
    package let uid: UInt32
    /// The peer's effective (primary) group id.
    package let gid: UInt32

    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads the credentials of the peer of a connected socket.
    ///
    /// The corresponding call is `getsockopt(SO_PEERCRED)`.
    /// - Throws: ``SystemError`` when the descriptor is not a connected Unix socket.
    package init(socket fd: Int32) throws(SystemError) {
        let peer = try UnixSocket.peerCredentials(fd)
        self.init(pid: peer.pid, uid: peer.uid, gid: peer.gid)
    }

    package var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

import FontRegSystem
import Synchronization

/// Who is on the other end of a Unix socket connection, as the kernel reports it (`SO_PEERCRED`).
package struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id when it connected.
    package let pid: Int32
    /// The peer's effective user id.
    package let uid: UInt32
    /// The peer's effective (primary) group id.
    package let gid: UInt32
    /// The peer's supplementary groups when it connected (`SO_PEERGROUPS`); empty when unknown.
    package let groups: [UInt32]
    /// A number that identifies the connection for the life of the process (0 for none), so that a
    /// service can tie state to it and drop it in ``VarlinkService/connectionClosed(_:)`` (issue 15).
    package let connection: UInt64

    package init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = [], connection: UInt64 = 0) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
        self.connection = connection
    }

    /// Reads the credentials of the peer of a connected socket.
    ///
    /// The corresponding call is `getsockopt(SO_PEERCRED)`.
    /// - Throws: ``SystemError`` when the descriptor is not a connected Unix socket.
    package init(socket fd: Int32) throws(SystemError) {
        let peer = try UnixSocket.peerCredentials(fd)
        self.init(
            pid: peer.pid, uid: peer.uid, gid: peer.gid, groups: (try? UnixSocket.peerGroups(fd)) ?? [],
            connection: PeerCredentials.nextConnection.add(1, ordering: .relaxed).newValue)
    }

    /// The last connection number handed out.
    private static let nextConnection = Atomic<UInt64>(0)

    package var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

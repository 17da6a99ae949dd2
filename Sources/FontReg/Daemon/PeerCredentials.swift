internal import CShim

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
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        try Syscall.run("getsockopt(SO_PEERCRED)") { cshim_peer_credentials(fd, &pid, &uid, &gid) }
        self.init(pid: pid, uid: uid, gid: gid)
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

internal import CShim
import Glibc

/// Unix stream sockets: the calls the daemon's listeners and the Varlink client make.
///
/// Every call goes through ``Syscall/run(_:subject:_:)``, so a failure is a ``SystemError``
/// carrying its errno, and `EINTR` is retried.
package enum UnixSocket {
    /// Creates a Unix stream socket with `SOCK_CLOEXEC` (and `SOCK_NONBLOCK` when asked).
    ///
    /// The corresponding call is `socket(AF_UNIX, SOCK_STREAM, 0)`.
    package static func stream(nonBlocking: Bool) throws(SystemError) -> Int32 {
        try Syscall.run("socket") { cshim_unix_stream_socket(nonBlocking ? 1 : 0) }
    }

    /// Binds a socket to a path; `ENAMETOOLONG` when the path does not fit `sun_path`.
    package static func bind(_ fd: Int32, to path: String) throws(SystemError) {
        try Syscall.run("bind", subject: path) { cshim_bind_unix(fd, path) }
    }

    /// Marks a bound socket as accepting connections, with `backlog` waiting at most.
    ///
    /// The corresponding call is `listen`.
    /// - Throws: ``SystemError`` naming `path`.
    package static func listen(_ fd: Int32, backlog: Int32, path: String) throws(SystemError) {
        try Syscall.run("listen", subject: path) { Glibc.listen(fd, backlog) }
    }

    /// Connects a socket to the listener at `path`.
    package static func connect(_ fd: Int32, to path: String) throws(SystemError) {
        try Syscall.run("connect", subject: path) { cshim_connect_unix(fd, path) }
    }

    /// Whether something accepts connections at `path` (a probe that connects and closes).
    package static func isListening(at path: String) -> Bool {
        guard let probe = try? stream(nonBlocking: false) else { return false }
        defer { Syscall.close(probe) }
        return cshim_connect_unix(probe, path) == 0
    }

    /// Accepts one connection, non-blocking and close-on-exec.
    ///
    /// - Returns: the new descriptor, or `nil` when no connection is waiting (`EAGAIN`).
    /// - Throws: ``SystemError`` for any other failure (`EMFILE`, `ENOBUFS`, …).
    package static func accept(_ fd: Int32) throws(SystemError) -> Int32? {
        while true {
            let result = cshim_accept(fd)
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemError("accept4", errno: code)
        }
    }

    /// Sends bytes without raising `SIGPIPE` on a closed peer.
    ///
    /// - Returns: the number of bytes sent, or `nil` when the socket would block.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let result = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemError("send", errno: code)
        }
    }

    /// Sends `bytes[offset...]`; see ``send(_:_:)-(_,UnsafeRawBufferPointer)``.
    package static func send(_ fd: Int32, _ bytes: [UInt8], from offset: Int) throws(SystemError) -> Int? {
        var result: Result<Int?, SystemError> = .success(nil)
        bytes.withUnsafeBytes { all in
            result = Result { () throws(SystemError) -> Int? in
                try send(fd, UnsafeRawBufferPointer(rebasing: all[offset...]))
            }
        }
        return try result.get()
    }

    /// Receives into the whole of `buffer`; see ``receive(_:into:)-(_,UnsafeMutableRawBufferPointer)``.
    package static func receive(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemError) -> Int? {
        var result: Result<Int?, SystemError> = .success(nil)
        buffer.withUnsafeMutableBytes { raw in
            result = Result { () throws(SystemError) -> Int? in try receive(fd, into: raw) }
        }
        return try result.get()
    }

    /// Receives bytes into a buffer.
    ///
    /// - Returns: the number of bytes read (0 at end of stream), or `nil` when it would block.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let result = Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemError("recv", errno: code)
        }
    }

    /// Makes blocking receives give up after `seconds` (`SO_RCVTIMEO`); they then report
    /// "would block".
    package static func setReceiveTimeout(_ fd: Int32, seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The process, user and group of the peer of a connected socket.
    ///
    /// The corresponding call is `getsockopt(SO_PEERCRED)`.
    package static func peerCredentials(_ fd: Int32) throws(SystemError) -> (pid: Int32, uid: UInt32, gid: UInt32) {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        try Syscall.run("getsockopt(SO_PEERCRED)") { cshim_peer_credentials(fd, &pid, &uid, &gid) }
        return (pid, uid, gid)
    }

    /// The supplementary groups of the peer of a connected socket, as they were when it connected.
    ///
    /// The corresponding call is `getsockopt(SO_PEERGROUPS)` (Linux 4.13 and later).
    package static func peerGroups(_ fd: Int32) throws(SystemError) -> [UInt32] {
        var groups = [gid_t](repeating: 0, count: 64)
        var count: Int32 = 0
        while true {
            let result = groups.withUnsafeMutableBufferPointer {
                cshim_peer_groups(fd, $0.baseAddress, Int32($0.count), &count)
            }
            if result == 0 { return Array(groups.prefix(Int(count))) }
            let code = Syscall.lastErrno
            guard code == ERANGE, Int(count) > groups.count, count <= 65_536 else {
                throw SystemError("getsockopt(SO_PEERGROUPS)", errno: code)
            }
            groups = [gid_t](repeating: 0, count: Int(count))
        }
    }

    /// Sends one datagram from an unbound Unix datagram socket to `path` (for tests that read
    /// `NOTIFY_SOCKET`).
    static func sendDatagram(_ message: [UInt8], to path: String) throws(SystemError) {
        let fd = try Syscall.run("socket") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { Syscall.close(fd) }
        try Syscall.run("sendto", subject: path) {
            message.withUnsafeBytes { cshim_sendto_unix(fd, path, $0.baseAddress, $0.count) }
        }
    }
}

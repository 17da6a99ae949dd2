internal import CShim
import Glibc

// Issue 15 (OpenFace): descriptors passed over the Varlink stream socket.
extension UnixSocket {
    /// Sends bytes with `descriptors` attached to their first byte (`sendmsg`, `SCM_RIGHTS`,
    /// no `SIGPIPE`); with no descriptors, a plain ``send(_:_:)-(_,UnsafeRawBufferPointer)``.
    ///
    /// - Returns: the number of bytes sent, or `nil` when the socket would block (nothing was sent,
    ///   descriptors included).
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, passing descriptors: [Int32])
        throws(SystemError) -> Int?
    {
        if descriptors.isEmpty { return try send(fd, bytes) }
        while true {
            let result = descriptors.withUnsafeBufferPointer {
                cshim_send_with_fds(fd, bytes.baseAddress, bytes.count, $0.baseAddress, Int32($0.count))
            }
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemError("sendmsg", errno: code)
        }
    }

    /// Receives bytes and any descriptors passed with them (`recvmsg`, `MSG_CMSG_CLOEXEC`).
    ///
    /// - Parameter descriptors: where received descriptors are appended; beyond `maximumDescriptors`
    ///   in one call they are closed.
    /// - Returns: the number of bytes read (0 at end of stream), or `nil` when it would block.
    package static func receive(
        _ fd: Int32, into buffer: inout [UInt8], descriptors: inout [FileDescriptor], maximumDescriptors: Int = 16
    ) throws(SystemError) -> Int? {
        var fds = [Int32](repeating: -1, count: maximumDescriptors)
        var count: Int32 = 0
        var truncated: Int32 = 0
        while true {
            let result = buffer.withUnsafeMutableBytes { raw in
                fds.withUnsafeMutableBufferPointer {
                    cshim_recv_with_fds(
                        fd, raw.baseAddress, raw.count, $0.baseAddress, Int32(maximumDescriptors), &count, &truncated)
                }
            }
            if result >= 0 {
                descriptors += fds.prefix(Int(count)).map { FileDescriptor(owning: $0) }
                return result
            }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemError("recvmsg", errno: code)
        }
    }
}

extension FileDescriptor {
    /// A new close-on-exec descriptor of the same open file, owned by the caller (`F_DUPFD_CLOEXEC`).
    ///
    /// - Throws: ``SystemError`` from `fcntl` (`EMFILE` when the process has no descriptor left).
    package func duplicate() throws(SystemError) -> Int32 {
        try Syscall.run("fcntl(F_DUPFD_CLOEXEC)") { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) }
    }
}

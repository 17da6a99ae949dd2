internal import CShim
import Glibc

/// Unix sequenced-packet sockets that carry descriptors: the daemon's channel to its font parsers.
///
/// `SOCK_SEQPACKET` keeps message boundaries (one request, one reply per message) and passes open
/// descriptors as `SCM_RIGHTS` ancillary data, so a parser reads a font through the descriptor
/// the daemon opened and never needs a path or a file system.
package enum PacketSocket {
    /// The most descriptors one message may carry (the kernel's `SCM_MAX_FD`).
    package static let maximumDescriptors = 253

    /// Creates a connected pair, both ends close-on-exec.
    ///
    /// The corresponding call is `socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC)`.
    package static func pair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try Syscall.run("socketpair") { fds.withUnsafeMutableBufferPointer { cshim_seqpacket_pair($0.baseAddress!) } }
        return (FileDescriptor(owning: fds[0]), FileDescriptor(owning: fds[1]))
    }

    /// Sends one message with descriptors attached (`sendmsg` with `SCM_RIGHTS`, no `SIGPIPE`).
    ///
    /// - Throws: ``SystemError`` (`EPIPE` when the peer is gone, `EMSGSIZE` when too large).
    package static func send(_ socket: Int32, _ bytes: [UInt8], descriptors: [Int32] = []) throws(SystemError) {
        let sent = try Syscall.run("sendmsg") {
            bytes.withUnsafeBytes { buffer in
                descriptors.withUnsafeBufferPointer { fds in
                    cshim_send_with_fds(socket, buffer.baseAddress, buffer.count, fds.baseAddress, Int32(fds.count))
                }
            }
        }
        if sent != bytes.count { throw SystemError("sendmsg", errno: EMSGSIZE) }
    }

    /// One received message and the descriptors that came with it (owned by the caller).
    package struct Message {
        /// The message's bytes; empty at the end of the stream.
        package var bytes: [UInt8]
        /// The descriptors passed with it, in order.
        package var descriptors: [FileDescriptor]
        /// Whether the message or its descriptors were cut short (larger than asked for).
        package var truncated: Bool
    }

    /// Receives one message of at most `capacity` bytes with up to `maximumDescriptors` descriptors.
    ///
    /// - Returns: the message; empty bytes mean the peer closed its end.
    /// - Throws: ``SystemError`` from `recvmsg`.
    package static func receive(_ socket: Int32, capacity: Int, maximumDescriptors: Int = 0)
        throws(SystemError) -> Message
    {
        var buffer = [UInt8](repeating: 0, count: capacity)
        var fds = [Int32](repeating: -1, count: max(1, maximumDescriptors))
        var count: Int32 = 0
        var truncated: Int32 = 0
        let received = try Syscall.run("recvmsg") {
            buffer.withUnsafeMutableBytes { bytes in
                fds.withUnsafeMutableBufferPointer { passed in
                    cshim_recv_with_fds(
                        socket, bytes.baseAddress, bytes.count, passed.baseAddress, Int32(maximumDescriptors),
                        &count, &truncated)
                }
            }
        }
        buffer.removeSubrange(received...)
        return Message(
            bytes: buffer, descriptors: fds.prefix(Int(count)).map { FileDescriptor(owning: $0) },
            truncated: truncated != 0)
    }

    /// Waits until one of the descriptors is readable or hung up, or the timeout passes.
    ///
    /// - Parameter milliseconds: how long to wait; negative waits for ever.
    /// - Returns: the indices of the ready descriptors (empty on timeout or interruption).
    /// - Throws: ``SystemError`` from `poll` (other than `EINTR`).
    package static func waitReadable(_ fds: [Int32], milliseconds: Int) throws(SystemError) -> [Int] {
        var ready = [Int32](repeating: 0, count: fds.count)
        let result = fds.withUnsafeBufferPointer { list in
            ready.withUnsafeMutableBufferPointer {
                cshim_poll_any(list.baseAddress, $0.baseAddress, Int32(list.count), Int32(clamping: milliseconds))
            }
        }
        if result < 0 {
            if Syscall.lastErrno == EINTR { return [] }
            throw SystemError("poll", errno: Syscall.lastErrno)
        }
        return ready.indices.filter { ready[$0] != 0 }
    }
}

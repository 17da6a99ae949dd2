import Foundation
import Glibc

/// A Unix datagram socket a test owns and passes as `NOTIFY_SOCKET`, to read what the daemon tells systemd.
package final class NotifyListener {
    package let path: String
    private let fd: Int32

    /// Binds `path`, or after `@` an abstract name (as `NOTIFY_SOCKET` may name one).
    package init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket(AF_UNIX, SOCK_DGRAM) failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let abstract = path.hasPrefix("@")
        var bytes = Array(path.utf8)
        if abstract { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw HarnessError("path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (offset, byte) in bytes.enumerated() { raw[offset] = byte }
        }
        // An abstract name's length is its bytes' (no NUL after it); a path's the whole structure.
        let length =
            abstract ? MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count : MemoryLayout<sockaddr_un>.size
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard bound == 0 else { throw HarnessError("bind \(path) failed: errno \(errno)") }
        if !abstract { chmod(path, 0o666) }
    }

    deinit {
        close(fd)
        if !path.hasPrefix("@") { unlink(path) }
    }

    /// Every message received until one contains `line` (as a whole line) or `timeout` passes.
    package func messages(until line: String, timeout: Double = 20) -> [String] {
        var received: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            received.append(message)
            if message.split(separator: "\n").contains(where: { $0 == line }) { return received }
        }
        return received
    }
}

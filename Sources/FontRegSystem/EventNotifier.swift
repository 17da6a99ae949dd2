internal import CShim
import Glibc

/// An `eventfd` that wakes an epoll loop from another thread; closed when released.
package final class EventNotifier: Sendable {
    /// The eventfd descriptor (non-blocking, close-on-exec).
    package let fd: Int32

    /// Creates the eventfd.
    package init() throws(SystemError) {
        fd = try Syscall.run("eventfd") { cshim_eventfd() }
    }

    deinit { Syscall.close(fd) }

    /// Makes the descriptor readable; wakes any loop waiting on it.
    package func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(fd, $0.baseAddress, 8) }
    }

    /// Consumes the pending wake-ups.
    package func drain() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { Glibc.read(fd, $0.baseAddress, 8) }
    }
}

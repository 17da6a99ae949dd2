internal import CShim
import Glibc

/// The one choke point through which the daemon calls the system: turns `-1`/errno into
/// a ``SystemError`` and retries on `EINTR`.
///
/// The raw wrappers (``run(_:subject:_:)``, ``read(_:into:)``, ``lastErrno``) are internal: other
/// modules call the typed operations of this module and never the kernel or `errno` themselves.
package enum Syscall {
    /// Calls `body` until it does not fail with `EINTR`.
    ///
    /// - Returns: the non-negative result.
    /// - Throws: ``SystemError`` with `operation` and the errno of a failure.
    @discardableResult
    static func run<Result: BinaryInteger>(
        _ operation: String, subject: String? = nil, _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemError(operation, subject: subject, errno: code)
        }
    }

    /// Reads from a non-blocking descriptor into the whole of `buffer`, retrying on `EINTR`.
    ///
    /// - Returns: the number of bytes read (0 at end of file), or `nil` when it would block.
    /// - Throws: ``SystemError`` for any other failure.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemError) -> Int? {
        while true {
            let result = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemError("read", errno: code)
        }
    }

    /// The calling thread's `errno`.
    static var lastErrno: Int32 { Glibc.errno }

    /// `EINTR`, for callers that treat an interrupted wait as an empty one.
    static let interrupted = EINTR

    /// Closes a descriptor, ignoring errors (there is nothing useful to do about them).
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Creates a directory and its missing parents (`mkdir -p`), each with `mode`.
    package static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        var info = stat()
        if stat(path, &info) == 0 { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]), mode: mode)
        }
        try makeDirectory(path, mode: mode)
    }

    /// Sets `O_NONBLOCK` and `FD_CLOEXEC` on a descriptor.
    package static func makeNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = try run("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        try run("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        let fdFlags = try run("fcntl(F_GETFD)") { fcntl(fd, F_GETFD) }
        try run("fcntl(F_SETFD)") { fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) }
    }
}

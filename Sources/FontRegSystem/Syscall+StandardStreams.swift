import Glibc

/// Writing to the process's standard output and error, for a command-line tool's lines.
extension Syscall {
    /// Standard output's descriptor.
    package static let standardOutput: Int32 = STDOUT_FILENO
    /// Standard error's descriptor.
    package static let standardError: Int32 = STDERR_FILENO

    /// Whether the descriptor `fd` is a terminal.
    ///
    /// The corresponding call is `isatty`.
    package static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// Writes every byte of `text`'s UTF-8 to the descriptor `fd`, however many calls it takes
    /// (retrying on `EINTR`), with no buffering of its own.
    ///
    /// The corresponding call is `write`. Used instead of Foundation's `FileHandle`, which
    /// brings swift-corelibs-foundation and CoreFoundation's start into every process that
    /// names it (issue 29 item 1).
    /// - Throws: ``SystemError`` (`EPIPE` when the reader is gone and `SIGPIPE` is ignored,
    ///   `EBADF` when the stream is closed).
    package static func writeAll(_ text: String, to fd: Int32) throws(SystemError) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            written += try run("write") {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            }
        }
    }
}

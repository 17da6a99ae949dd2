internal import CShim

/// The daemon's signals (SIGHUP, SIGTERM, SIGINT) read from a `signalfd` instead of handlers;
/// the descriptor is closed when the value is released.
package final class SignalDescriptor: Sendable {
    /// Blocks the daemon's signals in this thread and the threads it starts later, and ignores
    /// `SIGPIPE`. Call it before starting any thread.
    package static func blockDaemonSignals() throws(SystemError) {
        try Syscall.run("sigprocmask") { cshim_block_daemon_signals() }
    }

    /// Unblocks SIGINT, SIGTERM, SIGHUP and SIGPIPE in this thread, so that Ctrl-C, a stop and a
    /// closed pipe end a command even when the parent started it with them blocked.
    package static func unblockInterrupts() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The signalfd descriptor (blocking; wait for it with ``Epoll`` to read only when a signal is pending).
    package let fd: Int32

    /// Opens a `signalfd` for the daemon's signals.
    package init() throws(SystemError) {
        fd = try Syscall.run("signalfd") { cshim_signalfd() }
    }

    deinit { Syscall.close(fd) }

    /// `SIGHUP`, the signal number ``next()`` returns for a reload request.
    package static let hangUp = SIGHUP

    /// Reads one signal number; blocks until one arrives.
    package func next() throws(SystemError) -> Int32 {
        try Syscall.run("read(signalfd)") { cshim_signalfd_read(fd) }
    }
}

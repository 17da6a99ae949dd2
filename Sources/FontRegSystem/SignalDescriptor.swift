internal import CShim

/// The daemon's signals (SIGHUP, SIGTERM, SIGINT) read from a `signalfd` instead of handlers.
package enum SignalDescriptor {
    /// Blocks the daemon's signals in this thread and the threads it starts later, and ignores
    /// `SIGPIPE`. Call it before starting any thread.
    package static func blockDaemonSignals() throws(SystemError) {
        try Syscall.run("sigprocmask") { cshim_block_daemon_signals() }
    }

    /// A blocking `signalfd` for the daemon's signals.
    package static func open() throws(SystemError) -> Int32 {
        try Syscall.run("signalfd") { cshim_signalfd() }
    }

    /// Reads one signal number; blocks until one arrives.
    package static func next(_ fd: Int32) throws(SystemError) -> Int32 {
        try Syscall.run("read(signalfd)") { cshim_signalfd_read(fd) }
    }
}

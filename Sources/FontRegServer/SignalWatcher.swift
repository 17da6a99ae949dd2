internal import CShim
import FontRegCore
import FontRegJSON
import FontRegService
import FontRegSystem
import Foundation
import Varlink

/// The signals the daemon acts on.
public enum DaemonSignal: Sendable {
    /// SIGHUP: reload the configuration and rules, rescan.
    case reload
    /// SIGTERM or SIGINT: finish in-flight calls and exit.
    case terminate
}

/// Receives SIGHUP, SIGTERM and SIGINT through a signalfd on a thread of its own.
public enum SignalWatcher {
    /// Blocks the daemon's signals in the calling thread and every thread started after it.
    ///
    /// Call first thing in `main`, before any thread starts, so that only the signalfd sees them.
    public static func blockDaemonSignals() {
        if cshim_block_daemon_signals() != 0 {
            preconditionFailure("pthread_sigmask failed")
        }
    }

    /// Starts a thread that reads signals and hands each to `handler`.
    ///
    /// - Throws: ``SystemError`` when the signalfd cannot be created.
    public static func start(logger: Logger, handler: @escaping @Sendable (DaemonSignal) -> Void) throws(SystemError) {
        let fd = try Syscall.run("signalfd") { cshim_signalfd() }
        let thread = Thread {
            while true {
                let number = cshim_signalfd_read(fd)
                if number < 0 {
                    if errno == EINTR { continue }
                    logger.error("reading signals failed: \(SystemError("read(signalfd)", errno: errno))")
                    return
                }
                handler(number == SIGHUP ? .reload : .terminate)
            }
        }
        thread.name = "fontregd-signals"
        thread.start()
    }
}

import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Foundation
import Varlink

/// The signals the daemon acts on.
package enum DaemonSignal: Sendable {
    /// SIGHUP: reload the configuration and rules, rescan.
    case reload
    /// SIGTERM or SIGINT: finish in-flight calls and exit.
    case terminate
}

/// Receives SIGHUP, SIGTERM and SIGINT through a signalfd on a thread of its own.
package enum SignalWatcher {
    /// Blocks the daemon's signals in the calling thread and every thread started after it.
    ///
    /// Call first thing in `main`, before any thread starts, so that only the signalfd sees them.
    package static func blockDaemonSignals() {
        do {
            try SignalDescriptor.blockDaemonSignals()
        } catch {
            preconditionFailure("blocking the daemon's signals failed: \(error)")
        }
    }

    /// Starts a thread that reads signals and hands each to `handler`.
    ///
    /// - Throws: ``SystemError`` when the signalfd cannot be created.
    package static func start(logger: Logger, handler: @escaping @Sendable (DaemonSignal) -> Void) throws(SystemError) {
        let fd = try SignalDescriptor.open()
        let thread = Thread {
            while true {
                let number: Int32
                do {
                    number = try SignalDescriptor.next(fd)
                } catch {
                    logger.error("reading signals failed: \(error)")
                    return
                }
                handler(number == SIGHUP ? .reload : .terminate)
            }
        }
        thread.name = "fontregd-signals"
        thread.start()
    }
}

import Dispatch
import FontRegSystem
import Synchronization

/// systemd notification as a service: `READY=1` at its start, the first of the services the
/// daemon starts once its index, views and listening sockets are set up (the others' threads and
/// first writes come after it; issue 29 item 3), `WATCHDOG=1` while the event loops are healthy,
/// and `STOPPING=1` first thing at stop (``stopping()``).
final class NotifierService: DaemonService {
    package let name = "notifier"
    private let notifier: SystemdNotifier
    private let status: @Sendable () -> String
    private let isHealthy: @Sendable (_ limit: Double) -> Bool
    private let logger: Logger
    private let stopRequest = DispatchSemaphore(value: 0)
    private let watchdog = Mutex<ServiceThread?>(nil)

    /// - Parameters:
    ///   - notifier: where notifications go (nowhere without `NOTIFY_SOCKET`).
    ///   - status: the `STATUS=` line sent with `READY=1`.
    ///   - isHealthy: whether the daemon is alive, given the watchdog interval in seconds.
    package init(
        notifier: SystemdNotifier, logger: Logger, status: @escaping @Sendable () -> String,
        isHealthy: @escaping @Sendable (_ limit: Double) -> Bool
    ) {
        self.notifier = notifier
        self.logger = logger
        self.status = status
        self.isHealthy = isHealthy
    }

    /// Sends `READY=1` and, when systemd asked for a watchdog (`WATCHDOG_USEC`), starts petting it
    /// at half the interval while `isHealthy` says so: a stuck daemon stops petting, and systemd restarts it.
    package func start() {
        notifier.ready(status: status())
        guard let interval = notifier.watchdogInterval else { return }
        let half = Double(max(interval / 2, 1000)) / 1_000_000
        let limit = Double(interval) / 1_000_000
        watchdog.withLock { thread in
            thread = ServiceThread(name: "fontregd-watchdog") { [self] in
                while stopRequest.wait(timeout: .now() + half) == .timedOut {
                    if isHealthy(limit) {
                        notifier.petWatchdog()
                    } else {
                        logger.error("an event loop is stuck; not petting the watchdog")
                    }
                }
            }
        }
    }

    /// Sends `STOPPING=1`, before any service stops.
    package func stopping() {
        notifier.stopping()
    }

    /// Ends the watchdog thread.
    package func stop(before deadline: DispatchTime) -> Bool {
        stopRequest.signal()
        guard let thread = watchdog.withLock({ $0 }) else { return true }
        return thread.join(before: deadline)
    }
}

import Dispatch
import Synchronization

/// What every event loop of one server shares: the service, the limits, counters and the worker.
final class ServerShared: Sendable {
    let service: any VarlinkService
    let logger: Logger
    let limits: Mutex<ServerLimits>
    let connectionCount = Atomic<Int>(0)
    /// Runs deferred calls one at a time, off the event loops.
    let worker = DispatchQueue(label: "fontregd.worker")

    init(service: any VarlinkService, limits: ServerLimits, logger: Logger) {
        self.service = service
        self.limits = Mutex(limits)
        self.logger = logger
    }

    var currentLimits: ServerLimits { limits.withLock { $0 } }
}

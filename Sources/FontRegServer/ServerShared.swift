import Dispatch
import FontRegSystem
import Synchronization
import Varlink

/// What every event loop of one server shares: the service, the limits, counters and the worker.
final class ServerShared: Sendable {
    let service: any VarlinkService
    /// The errors sent for broken limits, named by the service.
    let errors: VarlinkLimitErrors
    let logger: Logger
    let limits: Mutex<ServerLimits>
    let connectionCount = Atomic<Int>(0)
    /// Connection slots by uid, shared by every loop.
    let budget: Mutex<ConnectionBudget>
    /// Runs deferred calls one at a time, off the event loops.
    let worker = DispatchQueue(label: "fontregd.worker")
    /// Runs slow queries (large batches) one at a time, off the event loops and apart from changes:
    /// however many clients send them, they share one thread and the loops keep answering everyone else.
    let queryWorker = DispatchQueue(label: "fontregd.queries", qos: .utility)

    init(service: any VarlinkService, errors: VarlinkLimitErrors, limits: ServerLimits, logger: Logger) {
        self.service = service
        self.errors = errors
        self.limits = Mutex(limits)
        self.budget = Mutex(ConnectionBudget(limits))
        self.logger = logger
    }

    var currentLimits: ServerLimits { limits.withLock { $0 } }

    /// Applies changed limits (on SIGHUP) to the limits and the connection budget.
    func update(_ new: ServerLimits) {
        limits.withLock { $0 = new }
        budget.withLock { budget in
            budget.maximumConnections = new.maximumConnections
            budget.maximumPerUID = new.maximumConnectionsPerUID
            budget.privilegedUIDs = new.privilegedUIDs.union([0])
        }
    }

    /// Unsent replies of all connections together, before each connection's share shrinks below
    /// `maximumOutputBuffer`: 1,024 clients that never read must not make the daemon hold 16 GiB.
    static let outputBudget = 256 << 20

    /// Bytes of unsent replies a connection may hold now before its calls wait: the configured
    /// limit, or an equal share of ``outputBudget`` (at least 256 KiB) when many connections are open.
    var outputLimit: Int {
        let share = ServerShared.outputBudget / max(1, connectionCount.load(ordering: .relaxed))
        return min(currentLimits.maximumOutputBuffer, max(share, 256 << 10))
    }
}

extension ConnectionBudget {
    /// An empty budget with the server's limits.
    init(_ limits: ServerLimits) {
        self.init(
            maximumConnections: limits.maximumConnections, maximumPerUID: limits.maximumConnectionsPerUID,
            privilegedUIDs: limits.privilegedUIDs)
    }
}

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
    /// Bytes of input buffers by uid and in all, shared by every loop.
    let input: Mutex<InputBudget>
    /// Runs deferred calls (changes) one at a time, off the event loops, taking the uids in turn:
    /// one user's queued changes wait behind one change of each other user, not all of theirs.
    let worker: BackgroundWorker
    /// Runs slow queries (large batches, long texts) off the event loops and apart from changes,
    /// on two threads at nice 10, fairly between uids: however many connections one user opens,
    /// its queries hold at most one of the threads and wait behind its own, and the threads yield
    /// the CPU to the loops, which keep answering everyone else.
    let queryWorker: BackgroundWorker

    init(service: any VarlinkService, errors: VarlinkLimitErrors, limits: ServerLimits, logger: Logger) {
        self.service = service
        self.errors = errors
        self.limits = Mutex(limits)
        self.budget = Mutex(ConnectionBudget(limits))
        self.input = Mutex(InputBudget(maximumMessageSize: limits.maximumMessageSize))
        self.logger = logger
        self.worker = BackgroundWorker(name: "fontregd-changes", count: 1, nice: nil, logger: logger)
        self.queryWorker = BackgroundWorker(name: "fontregd-queries", count: 2, nice: 10, logger: logger)
    }

    var currentLimits: ServerLimits { limits.withLock { $0 } }

    /// Applies changed limits (on SIGHUP) to the limits and the connection budget.
    func update(_ new: ServerLimits) {
        limits.withLock { $0 = new }
        budget.withLock { budget in
            budget.maximumConnections = new.maximumConnections
            budget.maximumPerUID = new.maximumConnectionsPerUID
            budget.privilegedUIDs = new.privilegedUIDs.union([0])
            budget.privilegedGIDs = new.privilegedGIDs
        }
        input.withLock { $0.resize(maximumMessageSize: new.maximumMessageSize) }
    }

    /// Unsent replies of all connections together: 10, 40 or 100 clients pipelining `ListFaces`
    /// without reading once held 264, 594 and 867 MB.
    ///
    /// Each connection may hold an equal share of it (at most `maximumOutputBuffer`, at least
    /// 64 KiB); once the total is reached, a connection with replies still unsent gets no more
    /// calls answered until its client reads, and one with none gets one reply at a time, so a
    /// client that reads is always served. Large cached replies are queued by reference
    /// (``OutputQueue``), so the bytes this counts are an upper bound on what they cost.
    static let outputBudget = 48 << 20

    /// Bytes of unsent replies of all connections, as last reported by their loops.
    let unsentBytes = Atomic<Int>(0)
    /// A loop freed a lot of memory (a burst's buffers): give it back to the kernel soon.
    let trimWanted = Atomic<Bool>(false)
    /// Bytes of buffers freed since the heap was last trimmed; past 1 MiB, ``trimWanted`` is set.
    let freedSinceTrim = Atomic<Int>(0)

    /// Notes that `bytes` of buffers were freed: once they add up to 1 MiB, the heap is trimmed soon.
    func noteFreed(_ bytes: Int) {
        guard bytes > 0 else { return }
        let freed = freedSinceTrim.wrappingAdd(bytes, ordering: .relaxed).newValue
        if freed >= 1 << 20 {
            freedSinceTrim.store(0, ordering: .relaxed)
            trimWanted.store(true, ordering: .relaxed)
        }
    }

    /// Bytes of unsent replies a connection may hold now before its calls wait: its share of
    /// ``outputBudget``, or 0 (one reply at a time, for a connection with none unsent) once the
    /// budget is spent.
    var outputLimit: Int {
        if unsentBytes.load(ordering: .relaxed) >= ServerShared.outputBudget { return 0 }
        let share = ServerShared.outputBudget / max(1, connectionCount.load(ordering: .relaxed))
        return min(currentLimits.maximumOutputBuffer, max(share, 64 << 10))
    }
}

extension ConnectionBudget {
    /// An empty budget with the server's limits.
    init(_ limits: ServerLimits) {
        self.init(
            maximumConnections: limits.maximumConnections, maximumPerUID: limits.maximumConnectionsPerUID,
            privilegedUIDs: limits.privilegedUIDs, privilegedGIDs: limits.privilegedGIDs)
    }
}

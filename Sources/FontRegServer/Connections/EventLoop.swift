import FontRegSystem
import Synchronization
import Varlink

/// One thread's epoll loop: accepts connections, moves bytes between their sockets and their
/// ``VarlinkConnection`` values, and runs deferred calls on the worker.
///
/// The loop is a thin driver: what to answer, in which order, when to stop reading and when
/// to close is decided by ``VarlinkConnection``. Every loop waits on all listening sockets
/// (`EPOLLEXCLUSIVE`), so connections spread over the loops; a connection stays with the loop
/// that accepted it.
// @unchecked Sendable: all mutable state except `inbox` and `heartbeat` is touched only
// on the loop's own thread (inside `run()`); `inbox` is a Mutex and `heartbeat` an Atomic.
final class EventLoop: @unchecked Sendable {
    private static let wakeID: UInt64 = 0
    private static let listenerBase: UInt64 = 1
    private static let firstConnectionID: UInt64 = 1 << 20
    /// How long in-flight calls may take to finish after a shutdown, in microseconds.
    private static let drainTime: UInt64 = 5_000_000

    let index: Int
    let shared: ServerShared
    private let listeners: [ListeningSocket]
    let epoll: Epoll
    private let wake: EventNotifier
    private let inbox = Mutex<[LoopMessage]>([])
    /// When the loop last went round, in monotonic microseconds (for the watchdog).
    let heartbeat = Atomic<UInt64>(0)

    var connections: [UInt64: Connection] = [:]
    private var nextID = EventLoop.firstConnectionID
    private(set) var draining = false
    private var drainDeadline: UInt64 = 0
    private var lastSweep: UInt64 = 0
    private var lastRefusalLog: UInt64 = 0
    /// When an input-budget refusal was last logged (``enforceInputBudget(reading:)``).
    var lastInputRefusalLog: UInt64 = 0
    /// When the loop last searched its connections for the largest input buffer.
    var lastInputSearch: UInt64 = 0
    var readBuffer = [UInt8](repeating: 0, count: 65536)
    /// Connections that stopped processing with calls still buffered, to continue after other connections had a turn.
    var backlog: Set<UInt64> = []

    var logger: Logger { shared.logger }

    init(index: Int, shared: ServerShared, listeners: [ListeningSocket]) throws(SystemError) {
        self.index = index
        self.shared = shared
        self.listeners = listeners
        epoll = try Epoll()
        wake = try EventNotifier()
        try epoll.add(wake.fd, events: Epoll.readable, data: EventLoop.wakeID)
        for (offset, listener) in listeners.enumerated() {
            try epoll.add(
                listener.fd, events: Epoll.readable | Epoll.exclusive, data: EventLoop.listenerBase + UInt64(offset))
        }
        heartbeat.store(MonotonicClock.microseconds, ordering: .relaxed)
    }

    /// Posts a message from any thread and wakes the loop.
    func post(_ message: LoopMessage) {
        inbox.withLock { $0.append(message) }
        wake.signal()
    }

    /// Runs until a ``LoopMessage/shutdown`` has been handled and every connection is closed.
    func run() {
        var events = [Epoll.Event](repeating: Epoll.Event(events: 0, data: 0), count: 128)
        while true {
            let now = MonotonicClock.microseconds
            heartbeat.store(now, ordering: .relaxed)
            if draining && (connections.isEmpty || now >= drainDeadline) { break }
            let count: Int
            do {
                // An idle loop still goes round 4 times a second: its heartbeat must stay well
                // inside the watchdog's interval (1 s in the fairness runs), or a quiet loop looks stuck.
                count = try epoll.wait(into: &events, timeout: backlog.isEmpty ? 250 : 0)
            } catch {
                logger.error("event loop \(index): \(error); stopping")
                break
            }
            for event in events[0..<count] { dispatch(event) }
            if !backlog.isEmpty { continueBacklog() }
            let after = MonotonicClock.microseconds
            if after - lastSweep > 1_000_000 {
                lastSweep = after
                sweepIdleConnections(now: after)
                trimMemoryIfWanted()
            }
        }
        for connection in Array(connections.values) { close(connection, reason: nil) }
    }

    private func dispatch(_ event: Epoll.Event) {
        switch event.data {
        case EventLoop.wakeID:
            wake.drain()
            drainInbox()
        case EventLoop.listenerBase..<EventLoop.firstConnectionID:
            acceptConnections(from: listeners[Int(event.data - EventLoop.listenerBase)])
        default:
            if let connection = connections[event.data] { handle(event.events, on: connection) }
        }
    }

    // MARK: Accepting

    private func acceptConnections(from listener: ListeningSocket) {
        guard !draining else { return }
        for _ in 0..<64 {
            let fd: Int32
            do {
                guard let accepted = try UnixSocket.accept(listener.fd) else { return }
                fd = accepted
            } catch {
                if error.errno == .tooManyOpenFiles || error.errno == .tooManyOpenFilesInSystem {
                    logger.error("cannot accept: out of file descriptors; raise LimitNOFILE= or lower max-connections")
                } else if error.errno != .connectionAbort {
                    logger.warning("accept failed: \(error)")
                }
                return
            }
            adopt(fd)
        }
    }

    /// Serves an accepted socket, or refuses it when its user has no slot left (``ConnectionBudget``).
    private func adopt(_ fd: Int32) {
        let limits = shared.currentLimits
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials(socket: fd)
        } catch {
            Syscall.close(fd)
            logger.warning("dropped a connection without peer credentials: \(error)")
            return
        }
        if let refusal = shared.budget.withLock({ $0.admit(uid: peer.uid, gid: peer.gid) }) {
            refuse(fd, peer: peer, refusal)
            return
        }
        shared.connectionCount.wrappingAdd(1, ordering: .relaxed)
        let id = nextID
        nextID += 1
        let events = Epoll.readable | Epoll.peerClosed
        let state = VarlinkConnection(
            peer: peer, service: shared.service, maximumMessageSize: limits.maximumMessageSize,
            errors: shared.errors)
        do {
            try epoll.add(fd, events: events, data: id)
        } catch {
            shared.connectionCount.wrappingSubtract(1, ordering: .relaxed)
            shared.budget.withLock { $0.release(uid: peer.uid) }
            Syscall.close(fd)
            logger.warning("cannot watch a new connection: \(error)")
            return
        }
        connections[id] = Connection(id: id, fd: fd, state: state, now: MonotonicClock.microseconds, events: events)
        logger.debug("connection \(id) from \(peer)")
    }

    private func refuse(_ fd: Int32, peer: PeerCredentials, _ refusal: ConnectionBudget.Refusal) {
        let bytes = VarlinkReply(error: shared.errors.tooManyConnections(refusal)).serialized()
        _ = try? UnixSocket.send(fd, bytes, from: 0)
        Syscall.close(fd)
        // Refusals come in floods: log the first of each second, not every one.
        let now = MonotonicClock.microseconds
        guard now - lastRefusalLog > 1_000_000 else { return }
        lastRefusalLog = now
        switch refusal {
        case .total(let limit):
            logger.warning("refused a connection from \(peer): \(limit) connections are open (max-connections)")
        case .perUID(let limit):
            logger.warning(
                "refused a connection from \(peer): uid \(peer.uid) holds \(limit) connections (max-connections-per-uid)"
            )
        }
    }

    /// After a burst, gives free heap memory back to the kernel, on the query worker (trimming
    /// walks the heap; the loop goes on serving meanwhile).
    private func trimMemoryIfWanted() {
        guard shared.trimWanted.exchange(false, ordering: .relaxed) else { return }
        shared.queryWorker.async(for: nil) { Memory.trim() }
    }

    // MARK: Inbox

    private func drainInbox() {
        let messages = inbox.withLock { messages in
            defer { messages.removeAll(keepingCapacity: true) }
            return messages
        }
        for message in messages {
            switch message {
            case .completed(let id, let result):
                guard let connection = connections[id] else { continue }
                connection.state.complete(result)
                serve(connection)
            case .completedEncoded(let id, let result):
                guard let connection = connections[id] else { continue }
                connection.state.complete(encoded: result)
                serve(connection)
            case .broadcast(let bytes):
                let limit = shared.currentLimits.maximumOutputBuffer
                for connection in Array(connections.values) where connection.state.subscribed {
                    guard connection.state.deliver(event: bytes, limit: limit) else {
                        close(
                            connection, reason: "Monitor client does not read its events (over \(limit) bytes queued)")
                        continue
                    }
                    if flush(connection) { updateInterest(connection) }
                }
            case .shutdown:
                startDraining()
            }
        }
    }

    private func startDraining() {
        guard !draining else { return }
        draining = true
        backlog.removeAll()  // no further calls are answered
        drainDeadline = MonotonicClock.microseconds + EventLoop.drainTime
        for listener in listeners { epoll.remove(listener.fd) }
        for connection in Array(connections.values) {
            if connection.state.shutDown() {
                close(connection, reason: nil)
            } else {
                updateInterest(connection)
            }
        }
    }
}

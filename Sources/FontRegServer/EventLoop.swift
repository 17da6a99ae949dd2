internal import CShim
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Glibc
import Synchronization
import Varlink

/// One thread's epoll loop: accepts connections, reads calls, dispatches them and writes replies.
///
/// Every loop waits on all listening sockets (`EPOLLEXCLUSIVE`), so connections spread
/// over the loops; a connection stays with the loop that accepted it.
// @unchecked Sendable: all mutable state except `inbox` and `heartbeat` is touched only
// on the loop's own thread (inside `run()`); `inbox` is a Mutex and `heartbeat` an Atomic.
final class EventLoop: @unchecked Sendable {
    private static let wakeID: UInt64 = 0
    private static let listenerBase: UInt64 = 1
    private static let firstConnectionID: UInt64 = 1 << 20

    let index: Int
    private let shared: ServerShared
    private let listeners: [ListeningSocket]
    private let epollFD: Int32
    private let wakeFD: Int32
    private let inbox = Mutex<[LoopMessage]>([])
    /// When the loop last went round, in monotonic microseconds (for the watchdog).
    let heartbeat = Atomic<UInt64>(0)

    private var connections: [UInt64: Connection] = [:]
    private var nextID = EventLoop.firstConnectionID
    private var draining = false
    private var drainDeadline: UInt64 = 0
    private var lastSweep: UInt64 = 0
    private var readBuffer = [UInt8](repeating: 0, count: 65536)
    /// Connections that stopped processing with calls still buffered, to continue after other connections had a turn.
    private var backlog: Set<UInt64> = []
    /// Calls answered per connection before the loop turns to the others.
    private static let callsPerTurn = 64

    private var logger: Logger { shared.logger }

    init(index: Int, shared: ServerShared, listeners: [ListeningSocket]) throws(SystemError) {
        self.index = index
        self.shared = shared
        self.listeners = listeners
        epollFD = try Syscall.run("epoll_create1") { cshim_epoll_create() }
        wakeFD = try Syscall.run("eventfd") { cshim_eventfd() }
        try Syscall.run("epoll_ctl(eventfd)") { cshim_epoll_add(epollFD, wakeFD, cshim_EPOLLIN, EventLoop.wakeID) }
        for (offset, listener) in listeners.enumerated() {
            try Syscall.run("epoll_ctl(listener)") {
                cshim_epoll_add(
                    epollFD, listener.fd, cshim_EPOLLIN | cshim_EPOLLEXCLUSIVE, EventLoop.listenerBase + UInt64(offset))
            }
        }
        heartbeat.store(cshim_monotonic_usec(), ordering: .relaxed)
    }

    deinit {
        Syscall.close(epollFD)
        Syscall.close(wakeFD)
    }

    /// Posts a message from any thread and wakes the loop.
    func post(_ message: LoopMessage) {
        inbox.withLock { $0.append(message) }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Runs until a ``LoopMessage/shutdown`` has been handled and every connection is closed.
    func run() {
        var events = [cshim_epoll_event](repeating: cshim_epoll_event(), count: 128)
        while true {
            let now = cshim_monotonic_usec()
            heartbeat.store(now, ordering: .relaxed)
            if draining && (connections.isEmpty || now >= drainDeadline) { break }
            let count = events.withUnsafeMutableBufferPointer {
                cshim_epoll_wait(epollFD, $0.baseAddress, Int32($0.count), backlog.isEmpty ? 1000 : 0)
            }
            if count < 0 {
                if errno == EINTR { continue }
                logger.error(
                    "event loop \(index): epoll_wait failed: \(SystemError("epoll_wait", errno: errno)); stopping")
                break
            }
            for event in events[0..<Int(count)] {
                switch event.data {
                case EventLoop.wakeID:
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    drainInbox()
                case EventLoop.listenerBase..<EventLoop.firstConnectionID:
                    acceptConnections(from: listeners[Int(event.data - EventLoop.listenerBase)])
                default:
                    if let connection = connections[event.data] { handle(event.events, on: connection) }
                }
            }
            if !backlog.isEmpty { continueBacklog() }
            let after = cshim_monotonic_usec()
            if after - lastSweep > 1_000_000 {
                lastSweep = after
                sweepIdleConnections(now: after)
            }
        }
        for connection in Array(connections.values) { close(connection, reason: nil) }
    }

    // MARK: Accepting

    private func acceptConnections(from listener: ListeningSocket) {
        guard !draining else { return }
        for _ in 0..<64 {
            let fd = cshim_accept(listener.fd)
            if fd < 0 {
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return }
                if code == EMFILE || code == ENFILE {
                    logger.error("cannot accept: out of file descriptors; raise LimitNOFILE= or lower max-connections")
                } else if code != ECONNABORTED {
                    logger.warning("accept failed: \(SystemError("accept4", errno: code))")
                }
                return
            }
            let limits = shared.currentLimits
            let count = shared.connectionCount.wrappingAdd(1, ordering: .relaxed).newValue
            if count > limits.maximumConnections {
                shared.connectionCount.wrappingSubtract(1, ordering: .relaxed)
                let reply = VarlinkReply(
                    error: VarlinkError(
                        RegistryInterface.ErrorName.tooManyConnections, ["limit": .int(limits.maximumConnections)]))
                let bytes = reply.serialized()
                _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                Syscall.close(fd)
                logger.warning(
                    "refused a connection: \(limits.maximumConnections) connections are open (max-connections)")
                continue
            }
            let peer: PeerCredentials
            do {
                peer = try PeerCredentials(socket: fd)
            } catch {
                shared.connectionCount.wrappingSubtract(1, ordering: .relaxed)
                Syscall.close(fd)
                logger.warning("dropped a connection without peer credentials: \(error)")
                continue
            }
            let id = nextID
            nextID += 1
            let events = cshim_EPOLLIN | cshim_EPOLLRDHUP
            let connection = Connection(
                id: id, fd: fd, peer: peer, maximumMessageSize: limits.maximumMessageSize,
                now: cshim_monotonic_usec(), events: events)
            if cshim_epoll_add(epollFD, fd, events, id) != 0 {
                shared.connectionCount.wrappingSubtract(1, ordering: .relaxed)
                Syscall.close(fd)
                logger.warning("cannot watch a new connection: \(SystemError("epoll_ctl", errno: errno))")
                continue
            }
            connections[id] = connection
            logger.debug("connection \(id) from \(peer)")
        }
    }

    // MARK: Events

    private func handle(_ events: UInt32, on connection: Connection) {
        if events & cshim_EPOLLERR != 0 {
            close(connection, reason: "socket error")
            return
        }
        if events & cshim_EPOLLOUT != 0 {
            guard flush(connection) else { return }
        }
        if events & (cshim_EPOLLIN | cshim_EPOLLRDHUP | cshim_EPOLLHUP) != 0 {
            if connection.registeredEvents & cshim_EPOLLIN == 0
                || events & cshim_EPOLLHUP != 0 && events & cshim_EPOLLIN == 0
            {
                // Reading is paused (or there is nothing left to read) and the peer hung up.
                close(connection, reason: connection.framer.hasPartialMessage ? "client disconnected mid-message" : nil)
                return
            }
            guard readAvailable(connection) else { return }
        }
        process(connection)
        guard flush(connection) else { return }
        updateInterest(connection)
    }

    /// Gives each connection that still has buffered calls another turn.
    private func continueBacklog() {
        let waiting = backlog
        backlog.removeAll(keepingCapacity: true)
        for id in waiting {
            guard let connection = connections[id] else { continue }
            process(connection)
            if flush(connection) { updateInterest(connection) }
        }
    }

    /// Reads what the socket has; returns false when the connection was closed.
    private func readAvailable(_ connection: Connection) -> Bool {
        var total = 0
        // Reading stops at the size limit: the framer then holds at most one message over it.
        while total < 1 << 20 && connection.framer.bufferedByteCount <= connection.framer.maximumMessageSize {
            let count = readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                total += count
                readBuffer.withUnsafeBytes { connection.framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                connection.lastActivity = cshim_monotonic_usec()
                if count < readBuffer.count { break }
                continue
            }
            if count == 0 {
                connection.peerClosed = true
                if connection.framer.hasPartialMessage {
                    // Complete messages before the partial one are still answered below.
                    logger.info("connection \(connection.id) (\(connection.peer)): client disconnected mid-message")
                }
                connection.closeWhenFlushed = true
                break
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { break }
            close(connection, reason: code == ECONNRESET ? nil : "read failed: \(SystemError("recv", errno: code))")
            return false
        }
        return true
    }

    /// Answers complete calls buffered on `connection`, in order, until one is deferred, its
    /// unsent replies pass the output limit, or it has had its turn (then it goes on the backlog).
    private func process(_ connection: Connection) {
        let outputLimit = shared.outputLimit
        var answered = 0
        while !connection.busy && !connection.subscribed && !draining && connection.pendingOutput <= outputLimit {
            if answered == EventLoop.callsPerTurn {
                backlog.insert(connection.id)
                return
            }
            answered += 1
            let call: VarlinkCall?
            do {
                call = try connection.framer.nextMessage { (bytes) throws(VarlinkProtocolError) -> VarlinkCall in
                    try VarlinkCall(parsing: bytes)
                }
            } catch {
                protocolViolation(error, on: connection)
                return
            }
            guard let call else { return }
            dispatch(call, on: connection)
        }
    }

    private func protocolViolation(_ error: VarlinkProtocolError, on connection: Connection) {
        let reply: VarlinkError
        if case .messageTooLarge(let limit) = error {
            reply = VarlinkError(RegistryInterface.ErrorName.messageTooLarge, ["limit": .int(limit)])
        } else {
            reply = VarlinkError(RegistryInterface.ErrorName.invalidMessage, ["reason": .string(error.description)])
        }
        logger.info("connection \(connection.id) (\(connection.peer)): \(error); closing it")
        connection.enqueue(VarlinkReply(error: reply))
        connection.closeWhenFlushed = true
        // Nothing more is read or answered on this connection.
        connection.framer = MessageFramer(maximumMessageSize: 0)
    }

    private func dispatch(_ call: VarlinkCall, on connection: Connection) {
        let service = shared.service
        func answer(_ result: Result<[String: JSONValue], VarlinkError>) {
            guard !call.oneway else { return }
            switch result {
            case .success(let parameters): connection.enqueue(VarlinkReply(parameters: parameters))
            case .failure(let error): connection.enqueue(VarlinkReply(error: error))
            }
        }
        if call.upgrade {
            answer(.failure(.methodNotImplemented(call.method)))
            return
        }
        if call.interface == VarlinkError.serviceInterface {
            answer(Result { () throws(VarlinkError) in try service.introspection.handle(call) })
            return
        }
        guard service.introspection.serves(call.interface) else {
            answer(.failure(.interfaceNotFound(call.interface)))
            return
        }
        switch service.handle(call, peer: connection.peer) {
        case .reply(let parameters):
            answer(.success(parameters))
        case .encodedReply(let bytes):
            if !call.oneway { VarlinkReply.write(encodedParameters: bytes, to: &connection.outbox) }
        case .failure(let error):
            answer(.failure(error))
        case .deferred(let work):
            connection.busy = true
            let id = connection.id
            let oneway = call.oneway
            shared.worker.async { [self] in
                let result = work()
                post(.completed(connection: id, result: result, oneway: oneway))
            }
        case .subscribe(let first):
            guard call.more else {
                answer(.failure(.expectedMore))
                return
            }
            connection.subscribed = true
            connection.enqueue(VarlinkReply(parameters: first, continues: true))
        }
    }

    // MARK: Inbox

    private func drainInbox() {
        let messages = inbox.withLock { messages in
            defer { messages.removeAll(keepingCapacity: true) }
            return messages
        }
        for message in messages {
            switch message {
            case .completed(let id, let result, let oneway):
                guard let connection = connections[id] else { continue }
                connection.busy = false
                if !oneway {
                    switch result {
                    case .success(let parameters): connection.enqueue(VarlinkReply(parameters: parameters))
                    case .failure(let error): connection.enqueue(VarlinkReply(error: error))
                    }
                }
                process(connection)
                if flush(connection) { updateInterest(connection) }
            case .broadcast(let bytes):
                let limit = shared.currentLimits.maximumOutputBuffer
                for connection in Array(connections.values) where connection.subscribed {
                    if connection.pendingOutput + bytes.count > limit {
                        close(
                            connection, reason: "Monitor client does not read its events (over \(limit) bytes queued)")
                        continue
                    }
                    connection.outbox.append(contentsOf: bytes)
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
        drainDeadline = cshim_monotonic_usec() + 5_000_000
        for listener in listeners { _ = cshim_epoll_remove(epollFD, listener.fd) }
        for connection in Array(connections.values) {
            if connection.subscribed || (!connection.busy && connection.pendingOutput == 0) {
                close(connection, reason: nil)
            } else {
                connection.closeWhenFlushed = true
                updateInterest(connection)
            }
        }
    }

    // MARK: Writing and closing

    /// Writes as much of the outbox as the socket takes; returns false when the connection was closed.
    private func flush(_ connection: Connection) -> Bool {
        while connection.pendingOutput > 0 {
            let count = connection.outbox.withUnsafeBytes {
                send(
                    connection.fd, $0.baseAddress! + connection.outboxSent, $0.count - connection.outboxSent,
                    Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                connection.outboxSent += count
                continue
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return true }
            close(
                connection,
                reason: code == EPIPE || code == ECONNRESET ? nil : "write failed: \(SystemError("send", errno: code))")
            return false
        }
        if connection.outboxSent > 0 {
            connection.outbox.removeAll(keepingCapacity: connection.outbox.capacity <= 1 << 20)
            connection.outboxSent = 0
        }
        if connection.closeWhenFlushed && !connection.busy && !backlog.contains(connection.id) {
            close(connection, reason: nil)
            return false
        }
        return true
    }

    /// Registers the events the connection needs now: reading unless it is paused, writing while replies wait.
    private func updateInterest(_ connection: Connection) {
        // Unanswered calls beyond one message's worth, or unsent replies beyond the output limit,
        // mean the client is ahead of the daemon: stop reading until it catches up.
        let pauseReading =
            connection.peerClosed || connection.closeWhenFlushed || draining
            || connection.pendingOutput > shared.outputLimit
            || connection.framer.bufferedByteCount > connection.framer.maximumMessageSize
        var events: UInt32 = pauseReading ? 0 : (cshim_EPOLLIN | cshim_EPOLLRDHUP)
        if connection.subscribed && !connection.peerClosed { events |= cshim_EPOLLRDHUP }
        if connection.pendingOutput > 0 { events |= cshim_EPOLLOUT }
        guard events != connection.registeredEvents else { return }
        connection.registeredEvents = events
        _ = cshim_epoll_modify(epollFD, connection.fd, events, connection.id)
    }

    private func close(_ connection: Connection, reason: String?) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        if let reason { logger.info("connection \(connection.id) (\(connection.peer)): \(reason); closed") }
        _ = cshim_epoll_remove(epollFD, connection.fd)
        Syscall.close(connection.fd)
        shared.connectionCount.wrappingSubtract(1, ordering: .relaxed)
    }

    private func sweepIdleConnections(now: UInt64) {
        let timeout = shared.currentLimits.idleTimeout
        guard timeout > 0 else { return }
        let limit = UInt64(timeout * 1_000_000)
        for connection in Array(connections.values)
        where !connection.busy && !connection.subscribed && connection.pendingOutput == 0
            && now - connection.lastActivity > limit
        {
            close(connection, reason: "idle for more than \(timeout) s (idle-timeout)")
        }
    }
}

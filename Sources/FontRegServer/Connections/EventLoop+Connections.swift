import FontRegSystem
import Synchronization
import Varlink

/// What the loop does for one connection: read, let the connection value answer, write, watch, close.
extension EventLoop {
    /// Calls answered per connection before the loop turns to the others.
    private static var callsPerTurn: Int { 64 }

    /// Acts on the epoll events of one connection.
    func handle(_ events: UInt32, on connection: Connection) {
        if events & Epoll.error != 0 {
            close(connection, reason: "socket error")
            return
        }
        if events & Epoll.writable != 0 {
            guard flush(connection) else { return }
        }
        if events & (Epoll.readable | Epoll.peerClosed | Epoll.hangUp) != 0 {
            if connection.registeredEvents & Epoll.readable == 0
                || events & Epoll.hangUp != 0 && events & Epoll.readable == 0
            {
                // Reading is paused (or there is nothing left to read) and the peer hung up.
                close(connection, reason: connection.state.hasPartialMessage ? "client disconnected mid-message" : nil)
                return
            }
            guard readAvailable(connection) else { return }
        }
        serve(connection)
    }

    /// Lets the connection answer what it has, writes the replies and updates what epoll watches.
    func serve(_ connection: Connection) {
        process(connection)
        connection.state.releaseConsumedInput()
        accountInput(connection)
        connection.notePartialMessage(now: MonotonicClock.microseconds)
        guard flush(connection) else { return }
        updateInterest(connection)
    }

    /// Gives each connection that still has buffered calls another turn.
    func continueBacklog() {
        let waiting = backlog
        backlog.removeAll(keepingCapacity: true)
        for id in waiting {
            guard let connection = connections[id] else { continue }
            serve(connection)
        }
    }

    /// Reads what the socket has; returns false when the connection was closed.
    private func readAvailable(_ connection: Connection) -> Bool {
        var total = 0
        while total < 1 << 20 && connection.state.canBufferMoreInput {
            guard enforceInputBudget(reading: connection) else { return false }
            let count: Int
            do {
                guard let received = try UnixSocket.receive(connection.fd, into: &readBuffer) else { break }
                count = received
            } catch {
                close(connection, reason: error.errno == .connectionReset ? nil : "read failed: \(error)")
                return false
            }
            if count == 0 {
                if connection.state.hasPartialMessage {
                    // Complete messages before the partial one are still answered.
                    logger.info("connection \(connection.id) (\(connection.peer)): client disconnected mid-message")
                }
                connection.state.receiveEnd()
                break
            }
            total += count
            readBuffer.withUnsafeBytes { connection.state.receive(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            accountInput(connection)
            connection.lastActivity = MonotonicClock.microseconds
            if count < readBuffer.count { break }
        }
        return true
    }

    /// Answers calls buffered on `connection` until it waits or has had its turn (then it goes on the backlog).
    private func process(_ connection: Connection) {
        guard !draining else { return }
        switch connection.state.process(maximumCalls: EventLoop.callsPerTurn, outputLimit: shared.outputLimit) {
        case .waiting:
            break
        case .yielded:
            backlog.insert(connection.id)
        case .deferred(let work):
            let id = connection.id
            // Users who are not administrators are paced while others change too (issue 24).
            let paced = shared.service.pacesChanges(of: connection.peer)
            shared.worker.async(for: connection.peer.uid, paced: paced) { [self] in
                post(.completed(connection: id, result: work()))
            }
        case .offloaded(let work):
            let id = connection.id
            // In the caller's uid's turn: one user's calls wait behind its own, not everyone's.
            shared.queryWorker.async(for: connection.peer.uid) { [self] in
                post(.completedEncoded(connection: id, result: work()))
            }
        case .violated(let error):
            logger.info("connection \(connection.id) (\(connection.peer)): \(error); closing it")
        }
    }

    /// Brings the server-wide count of unsent bytes up to date with this connection's.
    func account(_ connection: Connection) {
        // A closed connection's bytes were taken off the count when it closed.
        guard connections[connection.id] === connection else { return }
        let pending = connection.state.pendingOutputCount
        let delta = pending - connection.reportedOutput
        guard delta != 0 else { return }
        connection.reportedOutput = pending
        shared.unsentBytes.wrappingAdd(delta, ordering: .relaxed)
        // A burst written out or dropped: its buffers are free, give them back soon.
        if delta < 0 { shared.noteFreed(-delta) }
    }

    /// Writes as much output as the socket takes; returns false when the connection was closed.
    func flush(_ connection: Connection) -> Bool {
        defer { account(connection) }
        do {
            _ = try connection.state.writeOutput { (bytes, descriptors) throws(SystemError) -> Int? in
                try UnixSocket.send(connection.fd, bytes, passing: descriptors)
            }
        } catch {
            close(
                connection,
                reason: error.errno == .brokenPipe || error.errno == .connectionReset ? nil : "write failed: \(error)")
            return false
        }
        if connection.state.shouldClose {
            close(connection, reason: nil)
            return false
        }
        return true
    }

    /// Registers the events the connection needs now: reading unless it is paused, writing while replies wait.
    func updateInterest(_ connection: Connection) {
        let state = connection.state
        var events: UInt32 =
            !draining && state.wantsInput(outputLimit: shared.outputLimit) ? (Epoll.readable | Epoll.peerClosed) : 0
        if state.subscribed && !state.peerClosed { events |= Epoll.peerClosed }
        if state.pendingOutputCount > 0 { events |= Epoll.writable }
        guard events != connection.registeredEvents else { return }
        connection.registeredEvents = events
        do {
            try epoll.modify(connection.fd, events: events, data: connection.id)
        } catch {
            close(connection, reason: "cannot watch the connection: \(error)")
        }
    }

    /// Forgets a connection and closes its socket; `reason` is logged when given.
    func close(_ connection: Connection, reason: String?) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        backlog.remove(connection.id)
        if let reason { logger.info("connection \(connection.id) (\(connection.peer)): \(reason); closed") }
        epoll.remove(connection.fd)
        Syscall.close(connection.fd)
        shared.connectionCount.wrappingSubtract(1, ordering: .relaxed)
        shared.budget.withLock { $0.release(uid: connection.peer.uid) }
        shared.service.connectionClosed(connection.peer)
        // Input and output buffers are freed with the connection; once enough is freed, the heap is trimmed.
        releaseInput(of: connection)
        if connection.reportedOutput > 0 {
            shared.unsentBytes.wrappingSubtract(connection.reportedOutput, ordering: .relaxed)
            shared.noteFreed(connection.reportedOutput)
            connection.reportedOutput = 0
        }
    }

    /// Closes connections silent for longer than the idle timeout with nothing in flight, and
    /// connections that have taken longer than that to send one message (a slowloris trickling
    /// a byte a second is never silent, but never finishes a call either).
    func sweepIdleConnections(now: UInt64) {
        let timeout = shared.currentLimits.idleTimeout
        guard timeout > 0 else { return }
        let limit = UInt64(timeout * 1_000_000)
        for connection in Array(connections.values) {
            if connection.state.isIdle && now - connection.lastActivity > limit {
                close(connection, reason: "idle for more than \(timeout) s (idle-timeout)")
            } else if let started = connection.partialMessageSince, now - started > limit,
                connection.registeredEvents & Epoll.readable != 0
            {
                close(connection, reason: "sent part of a message for more than \(timeout) s (idle-timeout)")
            }
        }
    }
}

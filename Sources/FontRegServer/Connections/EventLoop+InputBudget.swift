import FontRegSystem
import Synchronization
import Varlink

/// The loop's side of the server-wide input budget (``InputBudget``): what each connection's
/// input buffer holds is charged to its user, and the largest buffers are refused when a user
/// or the server is over budget.
extension EventLoop {
    /// Brings the input budget up to date with this connection's input buffer.
    func accountInput(_ connection: Connection) {
        // A closed connection's bytes were given back when it closed.
        guard connections[connection.id] === connection else { return }
        let held = connection.state.inputCapacity
        let delta = held - connection.reportedInput
        guard delta != 0 else { return }
        connection.reportedInput = held
        shared.input.withLock { $0.charge(uid: connection.peer.uid, delta) }
        if delta < 0 { shared.noteFreed(-delta) }
    }

    /// Gives back what a closing connection's input buffer was charged.
    func releaseInput(of connection: Connection) {
        guard connection.reportedInput != 0 else { return }
        let held = connection.reportedInput
        connection.reportedInput = 0
        shared.input.withLock { $0.charge(uid: connection.peer.uid, -held) }
        shared.noteFreed(held)
    }

    /// Before `connection` reads more: when its buffer is over ``InputBudget/freeBytes`` and its
    /// user or the server is over budget, refuses the largest input buffer of this loop (of that
    /// user when the user is over its share), or, between two searches for it (at most one every
    /// 100 ms: with a thousand connections a search per read held the loop), `connection` itself.
    ///
    /// - Returns: false when `connection` itself was refused (it reads no more).
    func enforceInputBudget(reading connection: Connection) -> Bool {
        guard connection.state.inputCapacity > InputBudget.freeBytes else { return true }
        let uid = connection.peer.uid
        while let excess = shared.input.withLock({ $0.excess(for: uid) }) {
            let now = MonotonicClock.microseconds
            var victim = connection
            if now - lastInputSearch > 100_000 {
                lastInputSearch = now
                victim = largestInput(of: excess == .user ? uid : nil) ?? connection
            }
            guard victim.state.inputCapacity > InputBudget.freeBytes else { return true }
            refuseOverInputBudget(victim, excess)
            if victim === connection { return false }
        }
        return true
    }

    /// The connection of this loop (of `uid` only, when given) with the largest input buffer.
    private func largestInput(of uid: UInt32?) -> Connection? {
        var largest: Connection?
        for candidate in connections.values where uid == nil || candidate.peer.uid == uid {
            if candidate.state.inputCapacity > largest?.state.inputCapacity ?? 0 { largest = candidate }
        }
        return largest
    }

    /// Answers `MessageTooLarge` (with ``InputBudget/freeBytes``, what is always accepted) on a
    /// connection whose input buffer must go, frees the buffer, and closes once the reply is out.
    private func refuseOverInputBudget(_ connection: Connection, _ excess: InputBudget.Excess) {
        let held = connection.state.inputCapacity
        connection.state.refuseOverInputBudget(limit: InputBudget.freeBytes)
        accountInput(connection)
        let now = MonotonicClock.microseconds
        if now - lastInputRefusalLog > 1_000_000 {
            // Refusals come in floods: log the first of each second.
            lastInputRefusalLog = now
            let (bound, whose) = shared.input.withLock { budget in
                excess == .user
                    ? (budget.maximumPerUID, "uid \(connection.peer.uid)'s connections hold their share")
                    : (budget.maximum, "all connections hold the server's input budget")
            }
            logger.warning(
                "connection \(connection.id) (\(connection.peer)): refused a \(held)-byte input buffer: \(whose) "
                    + "(\(bound) bytes of partly received or unanswered messages); answered MessageTooLarge, closing"
            )
        }
        if flush(connection) { updateInterest(connection) }
    }
}

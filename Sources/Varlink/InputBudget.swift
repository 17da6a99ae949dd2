/// Bytes of received, unanswered input all connections may hold together, with a share per user.
///
/// Each connection may buffer one message up to `max-message-size` (plus one read round), so
/// 400 connections each holding an unterminated message just under 1 MiB took 429 MiB, and one
/// user's 128 connections could hold 256 MiB. The budget counts every connection's input buffer
/// (its capacity: what it costs); a connection holding more than ``freeBytes`` while its user or
/// the server is over budget is refused (`MessageTooLarge`, with the bytes it could have held)
/// and closed, largest first, so small calls of everyone else go on being read.
package struct InputBudget: Sendable {
    /// Bytes any connection may buffer whatever the budget: small calls are never refused.
    package static let freeBytes = 64 << 10

    /// The most bytes of input buffers all connections together may hold.
    package private(set) var maximum: Int
    /// The most bytes of input buffers the connections of one uid may hold.
    package private(set) var maximumPerUID: Int
    private var byUID: [UInt32: Int] = [:]
    /// Bytes held by all connections now.
    package private(set) var total = 0

    /// A budget for messages of up to `maximumMessageSize` bytes: each user may hold two such
    /// messages plus 1 MiB (at least 8 MiB), all users together four times that (at least 32 MiB).
    package init(maximumMessageSize: Int) {
        maximum = 0
        maximumPerUID = 0
        resize(maximumMessageSize: maximumMessageSize)
    }

    /// Sets the bounds for messages of up to `maximumMessageSize` bytes (after a reload); what
    /// connections hold is kept.
    package mutating func resize(maximumMessageSize: Int) {
        maximumPerUID = max(8 << 20, 2 * maximumMessageSize + (1 << 20))
        maximum = max(32 << 20, 4 * maximumPerUID)
    }

    /// Creates a budget with explicit bounds (for tests).
    package init(maximum: Int, maximumPerUID: Int) {
        self.maximum = maximum
        self.maximumPerUID = maximumPerUID
    }

    /// Bytes the connections of `uid` hold now.
    package func held(by uid: UInt32) -> Int { byUID[uid] ?? 0 }

    /// Records that a connection of `uid` now holds `delta` bytes more (or fewer, when negative).
    package mutating func charge(uid: UInt32, _ delta: Int) {
        guard delta != 0 else { return }
        total += delta
        let held = (byUID[uid] ?? 0) + delta
        byUID[uid] = held > 0 ? held : nil
    }

    /// Why input must be given back now, if it must.
    package enum Excess: Sendable, Hashable {
        /// The connections of this uid hold more than ``maximumPerUID``.
        case user
        /// All connections together hold more than ``maximum``.
        case server
    }

    /// Whether `uid`'s connections or all connections are over their bound.
    package func excess(for uid: UInt32) -> Excess? {
        if held(by: uid) > maximumPerUID { return .user }
        if total > maximum { return .server }
        return nil
    }
}

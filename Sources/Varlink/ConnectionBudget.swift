/// Who may open one more connection: a total limit, a share per user, and a reserve for administrators.
///
/// Every local user can reach the socket, so a single count let one user holding all the slots
/// (1,024 idle connections) lock everyone else out. The budget gives each uid at most
/// ``maximumPerUID`` connections, and keeps the last ``adminReserve`` slots of the total for
/// administrators — ``privilegedUIDs`` (root and the uids allowed to change the registry) and
/// peers whose primary gid is one of ``privilegedGIDs`` (the `allow-gid` groups) — who are not
/// bound by the per-user share: an administrator can always connect to see and fix what is wrong.
package struct ConnectionBudget: Sendable {
    /// Why a connection was refused.
    package enum Refusal: Sendable, Hashable {
        /// All slots open to this user are taken; `limit` is the total.
        case total(limit: Int)
        /// This user already holds `limit` connections.
        case perUID(limit: Int)
    }

    /// The most connections served at once.
    package var maximumConnections: Int
    /// The most connections one unprivileged uid may hold.
    package var maximumPerUID: Int
    /// Uids exempt from ``maximumPerUID`` that may use the reserve.
    package var privilegedUIDs: Set<UInt32>
    /// Primary gids whose members are exempt from ``maximumPerUID`` and may use the reserve
    /// (the groups allowed to change the registry).
    package var privilegedGIDs: Set<UInt32>
    private var byUID: [UInt32: Int] = [:]
    /// Connections open now.
    package private(set) var total = 0

    /// Creates an empty budget.
    ///
    /// - Parameters:
    ///   - maximumConnections: the most connections served at once.
    ///   - maximumPerUID: the most one unprivileged uid may hold.
    ///   - privilegedUIDs: uids with the reserve and no per-user share (root always is).
    ///   - privilegedGIDs: primary gids whose members have the reserve and no per-user share.
    package init(
        maximumConnections: Int, maximumPerUID: Int, privilegedUIDs: Set<UInt32> = [0],
        privilegedGIDs: Set<UInt32> = []
    ) {
        self.maximumConnections = maximumConnections
        self.maximumPerUID = maximumPerUID
        self.privilegedUIDs = privilegedUIDs.union([0])
        self.privilegedGIDs = privilegedGIDs
    }

    /// Slots only privileged uids may take: 8, or a quarter of a small total.
    package var adminReserve: Int { min(8, maximumConnections / 4) }

    /// Connections `uid` holds now.
    package func count(for uid: UInt32) -> Int { byUID[uid] ?? 0 }

    /// Whether a peer with this uid and primary gid is an administrator (reserve, no per-user share).
    package func isPrivileged(uid: UInt32, gid: UInt32?) -> Bool {
        privilegedUIDs.contains(uid) || gid.map { privilegedGIDs.contains($0) } ?? false
    }

    /// Takes a slot for `uid`, or says why not.
    ///
    /// - Parameters:
    ///   - uid: the peer's uid; slots are counted per uid.
    ///   - gid: the peer's primary gid, which makes it an administrator when in ``privilegedGIDs``.
    /// - Returns: `nil` when admitted (call ``release(uid:)`` when the connection closes), else the refusal.
    package mutating func admit(uid: UInt32, gid: UInt32? = nil) -> Refusal? {
        if isPrivileged(uid: uid, gid: gid) {
            guard total < maximumConnections else { return .total(limit: maximumConnections) }
        } else {
            guard total < maximumConnections - adminReserve else { return .total(limit: maximumConnections) }
            guard count(for: uid) < maximumPerUID else { return .perUID(limit: maximumPerUID) }
        }
        total += 1
        byUID[uid, default: 0] += 1
        return nil
    }

    /// Gives back a slot taken by ``admit(uid:)``.
    package mutating func release(uid: UInt32) {
        guard let held = byUID[uid], held > 0 else { return }
        total -= 1
        byUID[uid] = held == 1 ? nil : held - 1
    }
}

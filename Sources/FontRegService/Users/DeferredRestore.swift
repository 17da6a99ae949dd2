/// Users' persistent registrations still to restore after `READY=1` (issue 24), taken a chunk at
/// a time: one uid's registrations, at most ``chunkSize`` of them, per change of the registry, so
/// that other changes run between chunks.
struct DeferredRestore: Sendable {
    /// At most this many registrations are restored in one change (the per-user budget's default,
    /// so one user's registrations usually fit in one).
    static let chunkSize = 256

    /// The records not restored yet, in the order of the state files.
    var pending: [RegistrationRecord]
    /// How many there were at start.
    let total: Int
    /// When the restore began (``MonotonicClock`` microseconds).
    let started: UInt64

    /// Takes the next chunk: the first pending record's uid's records, at most `limit`, in order.
    ///
    /// - Parameter limit: the most records taken.
    /// - Returns: the records taken (empty when none are left).
    mutating func takeChunk(limit: Int = chunkSize) -> [RegistrationRecord] {
        guard let owner = pending.first?.owner else { return [] }
        var chunk: [RegistrationRecord] = []
        var left: [RegistrationRecord] = []
        left.reserveCapacity(pending.count)
        for record in pending {
            if record.owner == owner && chunk.count < limit { chunk.append(record) } else { left.append(record) }
        }
        pending = left
        return chunk
    }

    /// Whether `path` is a pending registration of `owner`.
    func holds(_ path: String, of owner: UInt32) -> Bool {
        pending.contains { $0.path == path && $0.owner == owner }
    }

    /// Drops the pending registrations of `paths` (unregistered before they were restored).
    ///
    /// - Returns: the paths dropped.
    mutating func drop(_ paths: [String]) -> Set<String> {
        let dropping = Set(paths)
        var dropped: Set<String> = []
        pending.removeAll { record in
            guard dropping.contains(record.path) else { return false }
            dropped.insert(record.path)
            return true
        }
        return dropped
    }
}

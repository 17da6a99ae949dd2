/// Users' persistent registrations still to restore after `READY=1` (issue 24), taken a chunk at
/// a time: whole uids' registrations, at most ``chunkSize`` in all (part of one uid's when it has
/// more), per change of the registry, so that other changes run between chunks.
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

    /// Takes the next chunk: whole uids' records, in order, as long as they fit in `limit`; a
    /// uid with more than `limit` left gives its first `limit` alone. (A chunk per uid made
    /// 10,000 registrations of 100 users 100 changes, each rescanning every root: 111 s.)
    ///
    /// - Parameter limit: the most records taken.
    /// - Returns: the records taken (empty when none are left).
    mutating func takeChunk(limit: Int = chunkSize) -> [RegistrationRecord] {
        var counts: [UInt32: Int] = [:]
        var owners: [UInt32] = []
        for record in pending {
            if counts[record.owner] == nil { owners.append(record.owner) }
            counts[record.owner, default: 0] += 1
        }
        guard let first = owners.first else { return [] }
        var taking: [UInt32: Int] = [first: min(counts[first] ?? 0, limit)]
        var total = taking[first] ?? 0
        for owner in owners.dropFirst() {
            let count = counts[owner] ?? 0
            guard total + count <= limit else { break }
            taking[owner] = count
            total += count
        }
        var chunk: [RegistrationRecord] = []
        var left: [RegistrationRecord] = []
        left.reserveCapacity(pending.count)
        for record in pending {
            if let wanted = taking[record.owner], wanted > 0 {
                chunk.append(record)
                taking[record.owner] = wanted - 1
            } else {
                left.append(record)
            }
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

import Synchronization

/// Whole replies (framed, NUL included) kept by the raw bytes of the request that produced them
/// and the caller's replay scope, so that a repeated call is answered without parsing its JSON or
/// running the method (issue 13).
///
/// The scope is an opaque string the service derives from everything besides the request that a
/// reply depends on for this caller — for fontregd the index generation, the caller's view of it
/// (private registrations, disabled faces) and their Bold Text setting and policy — so a reply
/// computed for one caller is replayed only to callers whose scope is the same. Only calls the
/// service marks as replayable (``CallOutcome/replayable(_:scope:)``) are stored; `oneway`,
/// `more` and `upgrade` calls never are, and since the request bytes are compared whole, a
/// request with one of those flags never matches a stored one.
///
/// Bounded in entries and bytes (the oldest entries are evicted first); ``invalidate()``
/// empties it and moves ``stamp`` on (a new generation, new rules, new settings).
package final class MessageReplyCache: Sendable {
    private struct Entry {
        let request: [UInt8]
        let scope: String
        let reply: [UInt8]
        var cost: Int { request.count + scope.utf8.count + reply.count + MessageReplyCache.entryOverhead }
    }

    private struct State {
        /// Entries by the hash of (request, scope); a bucket holds its entries oldest first.
        var buckets: [Int: [Entry]] = [:]
        /// The hashes of the entries in the order they were stored, for eviction (from `head` on).
        var order: [Int] = []
        var head = 0
        var count = 0
        var bytes = 0
    }

    /// What one entry costs beyond its bytes: its bucket slot, the array headers, the order slot.
    package static var entryOverhead: Int { 160 }

    /// The most entries kept.
    package let capacity: Int
    /// The most bytes kept, entries and ``entryOverhead`` together.
    package let maximumBytes: Int
    /// The longest reply kept; a longer one is sent but not kept.
    package let maximumReplyBytes: Int
    /// The longest request kept: a longer one is neither looked up nor kept, so that a large
    /// call (a `ResolveText` of a page, never replayed) costs no hash of its bytes and no copy.
    package let maximumRequestBytes: Int
    private let state = Mutex(State())
    private let stampValue = Atomic<UInt64>(0)
    private let seed: Int

    /// - Parameters:
    ///   - capacity: the most entries kept.
    ///   - maximumBytes: the most bytes kept.
    ///   - maximumReplyBytes: the longest reply kept.
    ///   - maximumRequestBytes: the longest request kept or looked up.
    package init(
        capacity: Int = 4096, maximumBytes: Int = 8 << 20, maximumReplyBytes: Int = 16 << 10,
        maximumRequestBytes: Int = 4 << 10
    ) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
        self.maximumReplyBytes = min(maximumReplyBytes, maximumBytes)
        self.maximumRequestBytes = maximumRequestBytes
        seed = Int.random(in: .min ... .max)
    }

    /// Changes whenever the cache is emptied by ``invalidate()``; a reply computed under an
    /// older stamp is not stored.
    package var stamp: UInt64 { stampValue.load(ordering: .acquiring) }

    /// Entries held now.
    package var count: Int { state.withLock { $0.count } }

    /// Bytes held now (entries and their overhead).
    package var byteCount: Int { state.withLock { $0.bytes } }

    /// Whether a request of `bytes` bytes may be kept, so is worth looking up and copying.
    package func mayKeep(requestOf bytes: Int) -> Bool { bytes <= maximumRequestBytes }

    /// The reply stored for `request` (one message without its NUL) in `scope`, if any.
    package func lookup(_ request: UnsafeBufferPointer<UInt8>, scope: String) -> [UInt8]? {
        guard mayKeep(requestOf: request.count) else { return nil }
        let hash = hash(request, scope)
        return state.withLock { state in
            guard let bucket = state.buckets[hash] else { return nil }
            for entry in bucket where entry.scope == scope && entry.request.elementsEqual(request) {
                return entry.reply
            }
            return nil
        }
    }

    /// Keeps `reply` for `request` in `scope`, unless it is too long or the cache was emptied
    /// since `stamp` was read (the reply may be of the state before).
    package func store(_ reply: [UInt8], for request: [UInt8], scope: String, stamp: UInt64) {
        guard reply.count <= maximumReplyBytes, mayKeep(requestOf: request.count) else { return }
        let entry = Entry(request: request, scope: scope, reply: reply)
        guard entry.cost <= maximumBytes else { return }
        let hash = request.withUnsafeBufferPointer { self.hash($0, scope) }
        state.withLock { state in
            guard stampValue.load(ordering: .acquiring) == stamp else { return }
            if let bucket = state.buckets[hash],
                bucket.contains(where: { $0.scope == scope && $0.request == request })
            {
                return
            }
            while state.count > 0 && (state.count >= capacity || state.bytes + entry.cost > maximumBytes) {
                Self.evictOldest(&state)
            }
            state.buckets[hash, default: []].append(entry)
            state.order.append(hash)
            state.count += 1
            state.bytes += entry.cost
        }
    }

    /// Empties the cache and moves ``stamp`` on: what was stored may no longer be the answer.
    package func invalidate() {
        state.withLock { state in
            stampValue.wrappingAdd(1, ordering: .releasing)
            state = State()
        }
    }

    private static func evictOldest(_ state: inout State) {
        let hash = state.order[state.head]
        state.head += 1
        if var bucket = state.buckets[hash], !bucket.isEmpty {
            let oldest = bucket.removeFirst()
            state.buckets[hash] = bucket.isEmpty ? nil : bucket
            state.count -= 1
            state.bytes -= oldest.cost
        }
        // The evicted hashes are dropped from the order list once they are half of it.
        if state.head > 1024 && state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }

    private func hash(_ request: UnsafeBufferPointer<UInt8>, _ scope: String) -> Int {
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(bytes: UnsafeRawBufferPointer(request))
        hasher.combine(scope)
        return hasher.finalize()
    }
}

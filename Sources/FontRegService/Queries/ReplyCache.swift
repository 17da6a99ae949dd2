import FontRegCore
import Synchronization

/// Serialized replies of the current index generation, keyed by what was asked.
///
/// A `Resolve` answer is a pure function of the query, the index snapshot and the rules,
/// and a listing of the snapshot alone, so a reply computed once can be sent again until
/// the generation changes (or the rules are reloaded, which clears the cache). Design
/// systems ask for the same few family, weight and style combinations over and over; a hit
/// skips the resolver and the JSON encoding.
///
/// The cache is bounded in entries and in bytes, and admits only replies up to
/// ``maximumEntryBytes``: distinct queries are the caller's to choose, so without a byte bound
/// every unknown family asked for once was kept (+5 MiB a call with long names).
package final class ReplyCache<Key: Hashable & Sendable>: Sendable {
    private struct State {
        var generation = -1
        var entries: [Key: [UInt8]] = [:]
        var bytes = 0
    }

    /// What one entry costs beyond its reply's bytes: its key, the dictionary slot, the array header.
    package static var entryOverhead: Int { 128 }

    /// The most replies kept; the cache starts over when it is full.
    package let capacity: Int
    /// The most bytes kept, replies and ``entryOverhead`` together; the cache starts over when a
    /// reply would pass it.
    package let maximumBytes: Int
    /// The largest reply kept, in bytes; a larger one is sent but not cached.
    package let maximumEntryBytes: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - capacity: the most replies kept.
    ///   - maximumBytes: the most bytes kept.
    ///   - maximumEntryBytes: the largest reply admitted.
    package init(capacity: Int = 4096, maximumBytes: Int = 8 << 20, maximumEntryBytes: Int = 16 << 10) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
        self.maximumEntryBytes = min(maximumEntryBytes, maximumBytes)
    }

    /// Bytes held now (replies and their overhead).
    package var byteCount: Int { state.withLock { $0.bytes } }

    /// Replies held now.
    package var count: Int { state.withLock { $0.entries.count } }

    /// The cached reply parameters (a serialized JSON object) for `key` in `generation`, if any.
    package func lookup(_ key: Key, generation: Int) -> [UInt8]? {
        state.withLock { state in
            state.generation == generation ? state.entries[key] : nil
        }
    }

    /// Keeps the reply parameters for `key` in `generation`, unless the reply is over ``maximumEntryBytes``.
    package func store(_ parameters: [UInt8], for key: Key, generation: Int) {
        let cost = parameters.count + Self.entryOverhead
        guard parameters.count <= maximumEntryBytes else { return }
        state.withLock { state in
            // A reply from a generation already replaced is not worth keeping (nor worth a reset).
            if generation < state.generation { return }
            if state.generation != generation || state.entries.count >= capacity
                || state.bytes + cost > maximumBytes
            {
                state.generation = generation
                state.entries = [:]
                state.bytes = 0
            }
            if let old = state.entries.updateValue(parameters, forKey: key) {
                state.bytes -= old.count + Self.entryOverhead
            }
            state.bytes += cost
        }
    }

    /// Forgets every reply (after the rules change).
    package func removeAll() {
        state.withLock { $0 = State() }
    }
}

/// What identifies a `Resolve` answer: every field of the query.
package struct ResolveCacheKey: Hashable, Sendable {
    let family: String
    let weight: Int
    let italic: Bool
    let boldText: Bool
    let boldPolicy: BoldTextPolicy?
    let strict: Bool
    let style: RequestedStyle
    let width: Double?
    let opticalSize: Double?
    let synthesis: SynthesisPermission

    init(_ query: ResolveQuery) {
        family = query.family
        weight = query.weight.value
        italic = query.italic
        boldText = query.boldText
        boldPolicy = query.boldPolicy
        strict = query.strict
        style = query.style
        width = query.width
        opticalSize = query.opticalSize
        synthesis = query.synthesis
    }
}

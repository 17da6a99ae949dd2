import Synchronization

/// Serialized `Resolve` replies of the current index generation, keyed by the query.
///
/// Resolution is a pure function of the query, the index snapshot and the rules, so a
/// reply computed once can be sent again until the generation changes (or the rules are
/// reloaded, which clears the cache). Design systems ask for the same few family, weight
/// and style combinations over and over; a hit skips the resolver and the JSON encoding.
public final class ReplyCache: Sendable {
    /// What identifies a query's answer.
    public struct Key: Hashable, Sendable {
        let family: String
        let weight: Int
        let italic: Bool
        let boldText: Bool
        let boldPolicy: BoldTextPolicy?
        let strict: Bool

        init(_ query: ResolveQuery) {
            family = query.family
            weight = query.weight.value
            italic = query.italic
            boldText = query.boldText
            boldPolicy = query.boldPolicy
            strict = query.strict
        }
    }

    private struct State {
        var generation = -1
        var entries: [Key: [UInt8]] = [:]
    }

    /// The most replies kept; the cache starts over when it is full.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The cached reply parameters (serialized JSON object) for `query` in `generation`, if any.
    public func lookup(_ query: ResolveQuery, generation: Int) -> [UInt8]? {
        let key = Key(query)
        return state.withLock { state in
            state.generation == generation ? state.entries[key] : nil
        }
    }

    /// Keeps the reply parameters for `query` in `generation`.
    public func store(_ parameters: [UInt8], for query: ResolveQuery, generation: Int) {
        let key = Key(query)
        state.withLock { state in
            if state.generation != generation || state.entries.count >= capacity {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[key] = parameters
        }
    }

    /// Forgets every reply (after the rules change).
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}

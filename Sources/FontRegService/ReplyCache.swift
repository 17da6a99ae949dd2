import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Synchronization
import Varlink

/// Serialized replies of the current index generation, keyed by what was asked.
///
/// A `Resolve` answer is a pure function of the query, the index snapshot and the rules,
/// and a listing of the snapshot alone, so a reply computed once can be sent again until
/// the generation changes (or the rules are reloaded, which clears the cache). Design
/// systems ask for the same few family, weight and style combinations over and over; a hit
/// skips the resolver and the JSON encoding.
package final class ReplyCache<Key: Hashable & Sendable>: Sendable {
    private struct State {
        var generation = -1
        var entries: [Key: [UInt8]] = [:]
    }

    /// The most replies kept; the cache starts over when it is full.
    package let capacity: Int
    private let state = Mutex(State())

    package init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The cached reply parameters (a serialized JSON object) for `key` in `generation`, if any.
    package func lookup(_ key: Key, generation: Int) -> [UInt8]? {
        state.withLock { state in
            state.generation == generation ? state.entries[key] : nil
        }
    }

    /// Keeps the reply parameters for `key` in `generation`.
    package func store(_ parameters: [UInt8], for key: Key, generation: Int) {
        state.withLock { state in
            // A reply from a generation already replaced is not worth keeping (nor worth a reset).
            if generation < state.generation { return }
            if state.generation != generation || state.entries.count >= capacity {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[key] = parameters
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

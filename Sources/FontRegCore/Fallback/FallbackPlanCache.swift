import FontRegJSON
import FontRegSystem
import Synchronization

/// Fallback plans kept across calls, by text query (stack, weight, style, width, Bold Text, language).
///
/// A plan remembers each family's face and the face chosen per code point and kind, so a daemon
/// answering many short texts with the same stack pays for that once. Plans belong to one index
/// generation: a call with another generation empties the cache. Call ``removeAll()`` when the
/// rules change (they change what a family resolves to without a new generation).
public final class FallbackPlanCache: Sendable {
    private let state = Mutex<(generation: Int, plans: [TextQuery: FallbackPlan])>((-1, [:]))
    /// The most plans kept; past it the cache starts afresh.
    public let capacity: Int

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: the most plans kept.
    public init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Takes the plan for a query out of the cache (a plan is used by one call at a time).
    func take(_ query: TextQuery, generation: Int) -> FallbackPlan? {
        state.withLock { state in
            guard state.generation == generation else {
                state = (generation, [:])
                return nil
            }
            return state.plans.removeValue(forKey: query)
        }
    }

    /// Puts a plan back after a call.
    func put(_ plan: FallbackPlan, for query: TextQuery, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.plans.count >= capacity { state.plans.removeAll() }
            state.plans[query] = plan
        }
    }

    /// Forgets every plan.
    public func removeAll() {
        state.withLock { $0.plans.removeAll() }
    }
}

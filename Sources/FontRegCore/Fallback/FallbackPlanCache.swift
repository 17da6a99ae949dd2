import Synchronization

/// Fallback plans kept across calls, by text query (stack, weight, style, width, Bold Text, language).
///
/// A plan remembers each family's face and the face chosen per code point and kind, so a daemon
/// answering many short texts with the same stack pays for that once. Plans belong to one index
/// generation: a call with another generation empties the cache. Call ``removeAll()`` when the
/// rules change (they change what a family resolves to without a new generation).
///
/// It also keeps the generation's `CoverageIndex` (which families cover which code points, for
/// registry-wide fallback), built once per generation on first need or by ``prepare(_:)``.
public final class FallbackPlanCache: Sendable {
    private let state = Mutex<(generation: Int, plans: [TextQuery: FallbackPlan])>((-1, [:]))
    /// The coverage index of the latest generation asked for; built under its own lock, so that
    /// callers needing it at once wait for one build instead of each building it.
    private let coverageIndex = Mutex<CoverageIndex?>(nil)
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

    /// The coverage index of `index`'s generation, built now when the cache has none for it.
    func coverage(for index: FontIndex) -> CoverageIndex {
        coverageIndex.withLock { current in
            if let current, current.generation == index.generation { return current }
            let built = CoverageIndex(index)
            current = built
            return built
        }
    }

    /// Builds the coverage index of a new index generation ahead of the first call that needs it:
    /// call it off the event loops after a change, so that no query pays for the build.
    ///
    /// - Parameter index: the index the next calls will resolve against.
    public func prepare(_ index: FontIndex) {
        _ = coverage(for: index)
    }

    /// Forgets every plan.
    public func removeAll() {
        state.withLock { $0.plans.removeAll() }
    }
}

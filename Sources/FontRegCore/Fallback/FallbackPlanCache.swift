import Synchronization

/// Fallback plans kept across calls, by text query (stack, weight, style, width, Bold Text, language).
///
/// A plan remembers each family's face and the face chosen per code point and kind, so a daemon
/// answering many short texts with the same stack pays for that once. Plans belong to one index
/// generation: a call with another generation empties the cache. Call ``removeAll()`` when the
/// rules change (they change what a family resolves to without a new generation).
///
/// It also keeps the generation's `CoverageIndex` (which families cover which code points, for
/// registry-wide fallback), built once per generation on first need or by ``prepare(_:)``, and
/// the registered families of fontconfig's generic names, which every plan of it shares.
public final class FallbackPlanCache: Sendable {
    private let state = Mutex<(generation: Int, plans: [TextQuery: FallbackPlan], bytes: Int)>((-1, [:], 0))
    /// The coverage index of the latest generation asked for; built under its own lock, so that
    /// callers needing it at once wait for one build instead of each building it.
    private let coverageIndex = Mutex<CoverageIndex?>(nil)
    /// fontconfig's families for a generic name and language that are registered, for the latest
    /// generation asked for (fontconfig's substitution costs more than the rest of a short call,
    /// and its configuration is read once per process: issue 26 item 5).
    private let generics = Mutex<(generation: Int, lists: [GenericKey: [String]], built: Int)>((-1, [:], 0))
    /// The most generic lists kept (the language is the caller's): past it the lists start afresh.
    static let maximumGenericLists = 64
    /// The most plans kept; past it the cache starts afresh.
    public let capacity: Int
    /// The most bytes the kept plans hold together (each plan's `FallbackPlan.memoryBytes`, summed): a plan
    /// that would take the cache past it starts the cache afresh, and a plan larger alone is not
    /// kept (issue 29 item 2: 256 plans of up to 16,384 choices had no byte bound).
    public let byteLimit: Int
    /// The bytes the kept plans hold unless told: 2 MiB, some fifty plans of a few dozen families.
    public static let defaultByteLimit = 2 << 20

    /// A generic family name and the query's language.
    private struct GenericKey: Hashable {
        let generic: String
        let language: String?
    }

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - capacity: the most plans kept.
    ///   - byteLimit: the most bytes the kept plans hold together.
    public init(capacity: Int = 256, byteLimit: Int = FallbackPlanCache.defaultByteLimit) {
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// Takes the plan for a query out of the cache (a plan is used by one call at a time).
    func take(_ query: TextQuery, generation: Int) -> FallbackPlan? {
        state.withLock { state in
            guard state.generation == generation else {
                state = (generation, [:], 0)
                return nil
            }
            guard let plan = state.plans.removeValue(forKey: query) else { return nil }
            state.bytes -= plan.memoryBytes
            return plan
        }
    }

    /// Puts a plan back after a call.
    func put(_ plan: FallbackPlan, for query: TextQuery, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            let bytes = plan.memoryBytes
            guard bytes <= byteLimit else { return }
            if state.plans.count >= capacity || state.bytes + bytes > byteLimit {
                state.plans.removeAll()
                state.bytes = 0
            }
            if let replaced = state.plans.updateValue(plan, forKey: query) { state.bytes -= replaced.memoryBytes }
            state.bytes += bytes
        }
    }

    /// The bytes the kept plans hold (each plan's `FallbackPlan.memoryBytes`, summed) and how many are kept (tests).
    package var planUse: (bytes: Int, plans: Int) {
        state.withLock { ($0.bytes, $0.plans.count) }
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

    /// The registered families of fontconfig's list for `generic` and `language` in `generation`,
    /// from `compute` the first time (or once the generation changed).
    func genericFamilies(
        _ generic: String, language: String?, generation: Int, _ compute: () -> [String]
    ) -> [String] {
        let key = GenericKey(generic: generic, language: language)
        return generics.withLock { state in
            if state.generation != generation { (state.generation, state.lists) = (generation, [:]) }
            if let known = state.lists[key] { return known }
            let lists = compute()
            state.built += 1
            if state.lists.count >= Self.maximumGenericLists { state.lists.removeAll() }
            state.lists[key] = lists
            return lists
        }
    }

    /// How many generic lists were worked out with fontconfig, over the cache's life (for tests).
    var genericListsBuilt: Int { generics.withLock { $0.built } }

    /// Builds the coverage index of a new index generation ahead of the first call that needs it:
    /// call it off the event loops after a change, so that no query pays for the build.
    ///
    /// - Parameter index: the index the next calls will resolve against.
    public func prepare(_ index: FontIndex) {
        _ = coverage(for: index)
    }

    /// Whether the coverage index of the latest generation asked for is read in place from the
    /// mapped index file (`true`) or was laid out in memory (`false`); `nil` before the first.
    package var coverageReadInPlace: Bool? { coverageIndex.withLock { $0?.isMapped } }

    /// Forgets every plan.
    public func removeAll() {
        state.withLock { state in
            state.plans.removeAll()
            state.bytes = 0
        }
    }
}

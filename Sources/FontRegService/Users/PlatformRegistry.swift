import Synchronization

/// The registry's issue-15 state: who registered what for how long, what is disabled, each
/// user's Bold Text setting, and the per-user views of the index built from them.
///
/// One lock; every method is short. The views are rebuilt lazily when the registry's
/// generation or this state's ``Live/epoch`` changes.
package final class PlatformRegistry: Sendable {
    /// Everything behind the lock.
    struct Live {
        /// Live registrations by path (administrators' configured directories have none).
        var records: [String: RegistrationRecord] = [:]
        /// What is persisted in the per-user files of `platform.d`.
        var state = PlatformState()
        /// Increases with every change that changes what a user sees without a new registry generation.
        var epoch = 0
        /// Views built for the current generation and epoch, by key.
        var views: [String: VisibleView] = [:]
        /// The estimated bytes of ``views``.
        var viewBytes = 0
        /// The generation and epoch the views were built for.
        var viewsBuiltFor: (generation: Int, epoch: Int) = (-1, -1)
        /// Connections with a connection-scoped `Register` still running, and how many.
        var pending: [UInt64: Int] = [:]
        /// Connections that closed while a connection-scoped `Register` of theirs was running.
        var closedWhilePending: Set<UInt64> = []
        /// Which indexed files not every user may read (issue 24).
        var readability = FileReadability()
        /// The private registrations' table, built at its first use and kept current by
        /// ``PlatformRegistry/add(_:)`` and ``PlatformRegistry/remove(paths:)``.
        var privateTable: PrivateRoots?
        /// When each owner of private fonts last asked for its view (``MonotonicClock``
        /// microseconds): a user's own change rebuilds, with itself, the views of the owners
        /// who asked within ``PlatformRegistry/activeOwnerWindow`` (issue 24, session 8).
        var ownersLastAsked: [UInt32: UInt64] = [:]

        /// Notes that owner `uid` asked for its view now. Past
        /// ``PlatformRegistry/maximumTrackedOwners`` owners noted, the idle ones are forgotten,
        /// and all of them if that is not enough (their views are then built at their queries,
        /// as an idle owner's are), so that a note costs O(1) amortized.
        mutating func noteOwnerAsked(_ uid: UInt32, now: UInt64, window: UInt64) {
            ownersLastAsked[uid] = now
            if ownersLastAsked.count > PlatformRegistry.maximumTrackedOwners {
                ownersLastAsked = ownersLastAsked.filter { now &- $0.value <= window }
                if ownersLastAsked.count > PlatformRegistry.maximumTrackedOwners / 2 { ownersLastAsked = [:] }
            }
        }

        /// The private registrations' table (built now at the first use).
        mutating func privateRoots() -> PrivateRoots {
            if let table = privateTable { return table }
            let roots = PrivateRoots(records.values.filter(\.isPrivate).map { ($0.path, $0.owner) })
            privateTable = roots
            return roots
        }

        /// Forgets the views kept, before a change of the private registrations' table: each
        /// view holds the table (shared, not copied), so changing it while they are kept copied
        /// all of it (issue 24, session 8: copying 10,240 entries at each `add` and `remove` was
        /// a fifth of one user's `Register` + `Unregister`). They are of the epoch the change
        /// ends anyway; a view a query still holds keeps its own copy.
        mutating func dropViewsSharingTheTable() {
            views = [:]
            viewBytes = 0
        }
    }

    let live = Mutex(Live())

    /// How long an owner of private fonts counts as active after asking for its view: 60 s.
    package static let defaultActiveOwnerWindow: UInt64 = 60_000_000
    /// The owners whose last query is remembered before idle ones are forgotten.
    static let maximumTrackedOwners = 4096
    /// How long an owner counts as active after asking for its view, in microseconds
    /// (``defaultActiveOwnerWindow``; tests set 0: every other owner idle).
    package let activeOwnerWindow = Atomic<UInt64>(PlatformRegistry.defaultActiveOwnerWindow)
    /// Counts the changes of ``Live/epoch`` (issue 13: connections recompute their replay scope
    /// when it moves).
    let changes = Atomic<UInt64>(0)

    package init() {}

    /// The live registration of `path`, if one was recorded.
    package func record(for path: String) -> RegistrationRecord? {
        live.withLock { $0.records[path] }
    }

    /// Every live registration recorded, sorted by path.
    package var records: [RegistrationRecord] {
        live.withLock { Array($0.records.values) }.sorted { $0.path < $1.path }
    }

    /// The persisted state now.
    package var state: PlatformState { live.withLock { $0.state } }

    /// The private registrations and their owners, for deciding who owns a face (built once per epoch).
    var privateRoots: PrivateRoots {
        live.withLock { $0.privateRoots() }
    }

    /// Marks a connection-scoped `Register` of `connection` as running.
    func beginConnectionRegister(_ connection: UInt64) {
        live.withLock { $0.pending[connection, default: 0] += 1 }
    }

    /// Marks it done; returns whether the connection closed meanwhile (then the registration must go).
    func endConnectionRegister(_ connection: UInt64) -> Bool {
        live.withLock { live in
            let left = (live.pending[connection] ?? 1) - 1
            live.pending[connection] = left > 0 ? left : nil
            guard left <= 0 else { return false }
            return live.closedWhilePending.remove(connection) != nil
        }
    }

    /// The connection-scoped registrations of a closed connection, to unregister (their records
    /// stay until they are unregistered, so that their faces stay private meanwhile).
    ///
    /// - Returns: their paths.
    func closeConnection(_ connection: UInt64) -> [String] {
        live.withLock { live in
            if live.pending[connection] != nil { live.closedWhilePending.insert(connection) }
            return live.records.values.filter { $0.scope == .connection && $0.connection == connection }.map(\.path)
        }
    }

    /// Applies `change` to the persisted state and bumps the epoch; the caller saves the result.
    ///
    /// - Returns: the state before and after the change.
    @discardableResult
    func changeState(_ change: (inout PlatformState) -> Void) -> (old: PlatformState, new: PlatformState) {
        live.withLock { live in
            let old = live.state
            change(&live.state)
            live.epoch += 1
            changes.wrappingAdd(1, ordering: .releasing)
            return (old, live.state)
        }
    }

    /// Puts the persisted state back as it was (after a failed save).
    func restoreState(_ state: PlatformState) {
        live.withLock { live in
            live.state = state
            live.epoch += 1
            changes.wrappingAdd(1, ordering: .releasing)
        }
    }

    /// Records live registrations, leaving any path already recorded as it is.
    ///
    /// - Returns: the paths recorded now (to remove again if the registration fails).
    @discardableResult
    func add(_ records: [RegistrationRecord]) -> [String] {
        live.withLock { live in
            live.dropViewsSharingTheTable()
            var added: [String] = []
            for record in records where live.records[record.path] == nil {
                live.records[record.path] = record
                added.append(record.path)
                if record.isPrivate { live.privateTable?.insert(record.path, owner: record.owner) }
            }
            live.epoch += 1
            changes.wrappingAdd(1, ordering: .releasing)
            return added
        }
    }

    /// Forgets live registrations.
    func remove(paths: [String]) {
        live.withLock { live in
            live.dropViewsSharingTheTable()
            for path in paths {
                if let record = live.records.removeValue(forKey: path), record.isPrivate {
                    live.privateTable?.remove(path)
                }
            }
            live.epoch += 1
            changes.wrappingAdd(1, ordering: .releasing)
        }
    }
}

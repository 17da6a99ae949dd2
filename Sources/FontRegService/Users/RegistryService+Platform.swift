import Dispatch
import FontRegCore
import FontRegJSON
import FontRegSystem
import Synchronization
import Varlink

/// Issue 15's parts of `GetStatus`, connection-scoped registrations, and the state restored at start.
extension RegistryService {
    /// `GetStatus`'s `registrations`, `disabled` and `boldText`: what `peer` may see of them.
    func platformStatus(view: VisibleView, peer: PeerCredentials) -> [String: JSONValue] {
        let persisted = Set(self.persisted.withLock { $0 })
        let records = platform.records
        let recorded = Set(records.map(\.path))
        // Configured directories and administrators' registrations persisted by an earlier
        // version have no record: they are public, persistent (or configured), owned by root.
        let implicit: [JSONValue] = registry.registeredPaths.filter { !recorded.contains($0) }.map { path in
            [
                "path": .string(path), "owner": 0, "scope": persisted.contains(path) ? "persistent" : "configured",
                "private": false,
            ]
        }
        let visible = records.filter { !$0.isPrivate || view.owners.contains($0.owner) || $0.owner == peer.uid }
        let disabled = platform.state.disabled.filter { $0.systemWide || $0.owner == peer.uid }
        let bold = boldText(for: peer.uid)
        return [
            "registrations": .array(visible.sorted { $0.path < $1.path }.map(\.jsonValue) + implicit),
            "disabled": .array(disabled.map(\.jsonValue)),
            "boldText": .bool(bold.on),
        ]
    }

    /// Unregisters the connection-scoped registrations of a connection that closed.
    package func connectionClosed(_ peer: PeerCredentials) {
        let paths = platform.closeConnection(peer.connection)
        guard !paths.isEmpty else { return }
        // The server's loop must not block: the scan runs on a queue of its own (the registry
        // serializes it with every other change).
        DispatchQueue.global(qos: .utility).async { [self] in dropConnectionRegistrations(paths, peer: peer) }
    }

    /// Unregisters paths whose connection has gone.
    func dropConnectionRegistrations(_ paths: [String], peer: PeerCredentials) {
        let registered = Set(registry.registeredPaths)
        let present = paths.filter { registered.contains($0) }
        if !present.isEmpty {
            do {
                let report = try registry.unregister(paths: present)
                logger.info(
                    "connection \(peer.connection) of \(peer) closed: unregistered \(present.joined(separator: ", ")) "
                        + "(\(report.removed.count) faces)")
            } catch {
                logger.warning("connection \(peer.connection) closed: cannot unregister: \(error)")
            }
        }
        platform.remove(paths: paths)
        invalidateCaches()
        warmViews()
    }

    /// Loads the persisted state (`platform.d`, migrating a `platform.json`) and registers users' persistent registrations again, each checked as
    /// `Register` checks it (inside the user's roots now, owned by the user). Call once at start,
    /// before the server accepts connections.
    ///
    /// - Returns: problems to report (a corrupt file moved aside, registrations refused).
    /// - Parameter deferringUsers: leave users' persistent registrations for
    ///   ``restoreDeferredUsersRegistrations()`` (the daemon runs it on the change worker after
    ///   `READY=1`); until then `GetStatus` reports them as being restored.
    @discardableResult
    package func restorePlatformState(deferringUsers: Bool = false) -> [StartupProblem] {
        let store = PlatformStateStore(directory: self.store.directory)
        var problems: [StartupProblem] = []
        let (state, found) = store.load()
        for problem in found {
            let reported = Self.described(problem, store: store)
            logger.error("\(reported.path): \(reported.reason)")
            if case .movedAside(let moved, _) = problem { Self.logRemovedCopies(moved, logger: logger) }
            problems.append(StartupProblem(reported, audience: problem.uid))
        }
        platform.live.withLock { $0.state = state }
        let started = MonotonicClock.microseconds
        let users = state.registrations.filter(\.isPrivate)
        if deferringUsers && !users.isEmpty {
            deferredRestore.withLock {
                $0 = DeferredRestore(pending: users, total: users.count, started: MonotonicClock.microseconds)
            }
        } else {
            restoreUsersRegistrations(users)
        }
        let registered = Set(registry.registeredPaths)
        let admin = state.registrations.filter { !$0.isPrivate && registered.contains($0.path) }
        platform.add(admin)
        restorePersistedOwners()
        invalidateCaches()
        if deferringUsers && !users.isEmpty {
            logger.info("restoring \(users.count) users' persistent registrations after READY")
        } else {
            logger.info(
                "restored \(users.count) users' persistent registrations in "
                    + "\((MonotonicClock.microseconds - started) / 1000) ms")
        }
        return problems
    }

    /// The start-up problems `peer` is shown: those of every user, and those of `peer`'s own
    /// state file (an administrator sees all), while they stand.
    func startupProblems(shownTo peer: PeerCredentials) -> [ScanProblem] {
        let all = startupProblems.withLock { $0 }.filter(\.isCurrent)
        let administrator = all.contains { $0.audience != nil } && isAdministrator(peer)
        return all.filter { $0.audience == nil || $0.audience == peer.uid || administrator }.map(\.problem)
    }

    /// A problem of ``PlatformStateStore/load()`` as `GetStatus` shows it: a user's file names the
    /// uid whose state was lost and where the damaged copy was kept.
    static func described(_ problem: PlatformStateStore.Problem, store: PlatformStateStore) -> ScanProblem {
        func whose(_ uid: UInt32?) -> String {
            uid.map {
                "persisted state of uid \($0) (its persistent registrations, disabled faces and Bold Text setting)"
            }
                ?? "disabled faces, Bold Text settings and users' persistent registrations"
        }
        switch problem {
        case .movedAside(let moved, let uid):
            return ScanProblem(
                path: uid.map(store.path(of:)) ?? store.path,
                reason: "unreadable; moved aside to \(moved.path) and started without the \(whose(uid)); "
                    + "other users' state is unaffected", kind: .other)
        case .notRead(let error, let uid):
            return ScanProblem(
                path: error.path.isEmpty ? (uid.map(store.path(of:)) ?? store.path) : error.path,
                reason: error.description + "; started without the \(whose(uid))", kind: error.problemKind)
        case .tooManyUsers(let found, let read):
            return ScanProblem(
                path: store.folder,
                reason: "\(found) per-user state files, more than the \(read) read at start; the files of the "
                    + "highest uids were not read (left in place)", kind: .tooLarge)
        case .notMigrated(let error):
            return ScanProblem(
                path: store.path,
                reason: "could not be written as per-user files in \(store.folder) and was kept: \(error)",
                kind: error.problemKind)
        }
    }

    /// Restores all the users' persistent registrations ``restorePlatformState(deferringUsers:)``
    /// left, chunk after chunk (``restoreDeferredUsersRegistrationsChunk(limit:)``).
    package func restoreDeferredUsersRegistrations() {
        while restoreDeferredUsersRegistrationsChunk() {}
    }

    /// Restores the next chunk of the users' persistent registrations
    /// ``restorePlatformState(deferringUsers:)`` left: at most `limit`, whole uids' where they fit, in one change
    /// of the registry (issue 24: 1,000 of them held `READY=1` back for seconds, 5,000 for
    /// minutes; then 10,000 restored in one change after READY held every change back 52 s). The
    /// daemon runs each chunk as a job of the change worker and queues the next after it, so a
    /// user's or root's change waits for one chunk, not for the whole restore; queries are
    /// answered meanwhile from what is served, and `GetStatus` says the restore is under way.
    ///
    /// - Parameter limit: the most registrations restored in this chunk.
    /// - Returns: whether registrations are left for another chunk.
    @discardableResult
    package func restoreDeferredUsersRegistrationsChunk(limit: Int = DeferredRestore.chunkSize) -> Bool {
        guard let chunk = deferredRestore.withLock({ $0?.takeChunk(limit: limit) }) else { return false }
        if !chunk.isEmpty { restoreUsersRegistrations(chunk) }
        let finished = deferredRestore.withLock { restore -> DeferredRestore? in
            guard let done = restore, done.pending.isEmpty else { return nil }
            restore = nil
            return done
        }
        invalidateCaches()
        if finished != nil { warmViews() }
        guard let finished else { return true }
        logger.info(
            "restored \(finished.total) users' persistent registrations in "
                + "\((MonotonicClock.microseconds - finished.started) / 1000) ms, after READY")
        return false
    }

    /// Whether users' persistent registrations are left to restore after the start.
    package var awaitsDeferredRestore: Bool {
        deferredRestore.withLock { $0 != nil }
    }

    /// Whether `path` is a persistent registration of `owner` not restored yet.
    func awaitsRestore(_ path: String, of owner: UInt32) -> Bool {
        deferredRestore.withLock { $0?.holds(path, of: owner) ?? false }
    }

    /// Drops the pending restores of `paths` (an `Unregister` of them before they were restored).
    ///
    /// - Returns: the paths that were pending.
    func dropPendingRestores(_ paths: [String]) -> Set<String> {
        deferredRestore.withLock { restore in
            guard var current = restore else { return [] }
            let dropped = current.drop(paths)
            restore = current
            return dropped
        }
    }

    /// Puts pending restores back after an `Unregister` that failed.
    ///
    /// - Parameters:
    ///   - paths: what ``dropPendingRestores(_:)`` dropped.
    ///   - state: the persisted state before the `Unregister`, which holds their records.
    func restorePendingRestores(_ paths: Set<String>, from state: PlatformState?) {
        guard !paths.isEmpty, let state else { return }
        let records = state.registrations.filter { paths.contains($0.path) && $0.isPrivate }
        deferredRestore.withLock { $0?.pending.append(contentsOf: records) }
    }

    /// `GetStatus`'s problem while users' persistent registrations are still being restored.
    var restoringProblems: [ScanProblem] {
        guard let users = deferredRestore.withLock({ $0?.pending }) else { return [] }
        return [
            ScanProblem(
                path: PlatformStateStore(directory: store.directory).folder,
                reason:
                    "users' persistent registrations (\(users.count)) are still being restored after the start; "
                    + "their fonts are served once this problem is gone", kind: .other)
        ]
    }

    /// Registers users' persistent registrations again in one change of the registry (one scan),
    /// each checked as `Register` checks it; one refused is logged and left out (issue 24: one
    /// change each made the start quadratic, 415 s for 1,000).
    ///
    /// - Parameter records: the users' records of the state file.
    func restoreUsersRegistrations(_ records: [RegistrationRecord]) {
        var pending: [FontRegistry.PendingRegistration] = []
        var checked: [RegistrationRecord] = []
        var byPath: [String: RegistrationRecord] = [:]
        for record in records {
            do {
                let user = try checkUserPath(record.path, peer: PeerCredentials(pid: 0, uid: record.owner, gid: 0))
                let path = FontRegistry.absolute(user.path)
                pending.append(
                    FontRegistry.PendingRegistration(
                        path: path, confinedTo: user.roots.resolvedRoots, filesOwnedBy: record.owner))
                checked.append(record)
                if byPath[path] == nil { byPath[path] = record }
            } catch {
                // Logged only: GetStatus shows its problems to every user, and this path is one user's.
                logger.error("persisted registration of \(record.path) for uid \(record.owner) refused: \(error)")
            }
        }
        guard !pending.isEmpty else { return }
        // Recorded first, so that the faces are private from the moment they appear.
        let added = Set(platform.add(checked))
        let (_, refused) = registry.register(each: pending)
        var dropped: [String] = []
        for (path, error) in refused {
            guard let record = byPath[path] else { continue }
            logger.error(
                "persisted registration of \(record.path) for uid \(record.owner) refused: \(Self.varlinkError(error))")
            if added.contains(record.path) { dropped.append(record.path) }
        }
        platform.remove(paths: dropped)
    }

    /// Logs the copies moved aside earlier that were removed to keep the newest ``StateFile/keptCopies``.
    ///
    /// - Parameters:
    ///   - moved: what ``StateFile/moveAside()`` did.
    ///   - logger: where to say so.
    package static func logRemovedCopies(_ moved: StateFile.MovedAside, logger: Logger) {
        guard !moved.removed.isEmpty else { return }
        logger.warning(
            "kept the \(StateFile.keptCopies) newest corrupt copies; removed the older "
                + moved.removed.joined(separator: ", "))
    }
}

import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Synchronization
import Varlink

/// Issue 15: scopes, and users registering their own fonts without being administrators.
extension RegistryService {
    /// Reads `scope` (and the older `persist`, which means `persistent`).
    ///
    /// - Throws: `InvalidParameter(scope)` for an unknown scope, or one that contradicts `persist: true`.
    static func scope(from reader: ParameterReader) throws(VarlinkError) -> RegistrationScope {
        let persist = try reader.optionalBool("persist") ?? false
        guard let name = try reader.optionalString("scope", maximumBytes: maximumKeywordBytes) else {
            return persist ? .persistent : .session
        }
        guard let scope = RegistrationScope(name: name), !persist || scope == .persistent else {
            throw VarlinkError.invalidParameter("scope")
        }
        return scope
    }

    /// `Register` from a user who is not an administrator: their own files in their own roots,
    /// seen by their own queries only (unless `share-user-fonts`).
    func registerOwn(_ paths: [String], scope: RegistrationScope, call: VarlinkCall, peer: PeerCredentials)
        throws(VarlinkError) -> CallOutcome
    {
        var resolved: [String] = []
        var roots: AllowedRoots?
        for path in paths {
            do {
                let checked = try checkUserPath(path, peer: peer)
                roots = checked.roots
                if !resolved.contains(checked.path) { resolved.append(checked.path) }
            } catch {
                logger.warning("refused Register of \(path) from \(peer): \(error.name) \(error.parameters)")
                throw error
            }
        }
        guard let roots else { throw VarlinkError.invalidParameter("paths") }
        let validated = resolved
        let records = validated.map {
            RegistrationRecord(
                path: $0, owner: peer.uid, scope: scope, isPrivate: true,
                connection: scope == .connection ? peer.connection : 0)
        }
        if scope == .persistent {
            // Refused before any scan when over budget already; checked again before the save.
            let state = platform.state
            var grown = state
            grown.append(records)
            try checkPersistedBudget(old: state, new: grown, peer: peer)
        }
        logger.info("registering \(validated.joined(separator: ", ")) (\(scope.rawValue), own fonts) for \(peer)")
        if scope == .connection { platform.beginConnectionRegister(peer.connection) }
        return .deferred { [self] in
            Result { () throws(VarlinkError) -> [String: JSONValue] in
                try performRecordedRegister(records, peer: peer) { () throws(VarlinkError) in
                    try performOwnRegister(records, roots: roots, peer: peer)
                }
            }
        }
    }

    /// Records the registrations before their faces appear (so that they are private from the
    /// first moment), runs `body`, and undoes the records if it fails. A connection-scoped
    /// registration whose connection closed meanwhile is unregistered at once.
    func performRecordedRegister(
        _ records: [RegistrationRecord], peer: PeerCredentials,
        _ body: () throws(VarlinkError) -> [String: JSONValue]
    ) throws(VarlinkError) -> [String: JSONValue] {
        let connectionScoped = records.first?.scope == .connection
        let added = platform.add(records)
        let reply: [String: JSONValue]
        do {
            reply = try body()
        } catch {
            platform.remove(paths: added)
            if connectionScoped { _ = platform.endConnectionRegister(peer.connection) }
            throw error
        }
        if connectionScoped, platform.endConnectionRegister(peer.connection) {
            dropConnectionRegistrations(records.map(\.path), peer: peer)
        }
        // A user's own registrations change what that user sees (and what all see with
        // `share-user-fonts`), not the views of other owners: those are built at their next query.
        warmViews(changedBy: records.allSatisfy(\.isPrivate) ? peer.uid : nil)
        return reply
    }

    /// Registers a user's own paths on the worker, confined to the user's roots, and keeps the
    /// persistent ones in their file of `platform.d`.
    func performOwnRegister(_ records: [RegistrationRecord], roots: AllowedRoots, peer: PeerCredentials)
        throws(VarlinkError) -> [String: JSONValue]
    {
        let paths = records.map(\.path)
        try refuseEscapingLinks(in: paths, roots: roots, peer: peer)
        let report: RegistrationReport
        do {
            report = try registry.register(paths: paths, confinedTo: roots.resolvedRoots, filesOwnedBy: peer.uid)
        } catch {
            // `within` names the registration that holds the path: not to be shown when it is
            // another user's own (possible under a shared absolute user-font-root).
            if case .alreadyRegistered(let path, let within?) = error,
                platform.record(for: within).map({ $0.isPrivate && $0.owner != peer.uid }) ?? false
            {
                throw Self.varlinkError(RegistryError.alreadyRegistered(path: path, within: nil))
            }
            throw Self.varlinkError(error)
        }
        // A directory may hold a file someone else owns (a hard link, a file another user could
        // write there): the registration is a user's own only when every face file is theirs.
        // The scan already left such files out (checked on their descriptors); at Register they
        // refuse the whole registration, at a later rescan they are only dropped.
        let foreign = report.problems.filter { problem in
            problem.kind == .notOwned
                && paths.contains { AllowedRoots.isInside(problem.path, root: $0) }
        }.map(\.path)
        for file in foreign + Set(report.added.map(\.file)).sorted() {
            guard !foreign.contains(file), let info = try? Syscall.status(ofPath: file, followLinks: false),
                info.owner == peer.uid
            else {
                _ = try? registry.unregister(paths: paths)
                logger.warning(
                    "refused Register of \(paths.joined(separator: ", ")) from \(peer): \(file) is not theirs")
                throw VarlinkError(
                    RegistryInterface.ErrorName.pathNotAllowed,
                    [
                        "path": .string(file),
                        "reason": "it is not owned by you: a user may register only files they own",
                        "allowedRoots": .array(roots.roots.map { .string($0) }),
                    ])
            }
        }
        if records.first?.scope == .persistent {
            let (old, new) = platform.changeState { $0.append(records) }
            do {
                try checkPersistedBudget(old: old, new: new, peer: peer)
            } catch {
                platform.restoreState(old)
                _ = try? registry.unregister(paths: paths)
                throw error
            }
            do {
                try PlatformStateStore(directory: store.directory).save(new, replacing: old, uids: [peer.uid])
            } catch {
                platform.restoreState(old)
                _ = try? registry.unregister(paths: paths)
                logger.error("Register of \(paths.joined(separator: ", ")) rolled back: \(error)")
                throw VarlinkError(
                    RegistryInterface.ErrorName.persistenceFailed,
                    [
                        "path": .string(PlatformStateStore(directory: store.directory).folder),
                        "reason": .string(error.description),
                    ])
            }
        }
        logger.info(
            "registered \(paths.joined(separator: ", ")) for \(peer): \(report.added.count) faces added, "
                + "generation \(report.generation)")
        // A single file too: a change no longer rescans every root, so an unwatched file would
        // wait for an explicit Rescan.
        if let callback = rootRegistered.withLock({ $0 }) {
            for path in paths { callback(path) }
        }
        return [
            "added": .array(report.added.map(\.jsonValue)),
            "problems": .array(
                report.problems.filter { problem in paths.contains { AllowedRoots.isInside(problem.path, root: $0) } }
                    .map { ["path": .string($0.path), "reason": .string($0.reason)] }),
            "generation": .int(report.generation),
        ]
    }

    /// Refuses an `Unregister` by a user of anything but their own registrations:
    /// `NotRegistered` for a path inside their own roots, `PermissionDenied` otherwise (which
    /// says nothing of whether another user registered it). A persistent registration of theirs
    /// not restored yet after the start counts as theirs.
    func requireOwnRegistrations(_ paths: [String], call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) {
        let roots = settings.withLock { $0.platform }.roots(for: peer.uid)
        for path in paths {
            if let record = platform.record(for: path), record.owner == peer.uid { continue }
            if awaitsRestore(path, of: peer.uid) { continue }
            if let roots, roots.resolvedRoots.contains(where: { AllowedRoots.isInside(path, root: $0) }) {
                throw VarlinkError(RegistryInterface.ErrorName.notRegistered, ["path": .string(path)])
            }
            throw permissionDenied(call, peer: peer, "\(path) is not a registration of theirs")
        }
    }

    /// Takes users' persistent registrations of `paths` out of the persisted state, durably.
    ///
    /// - Returns: the state before, to put back if unregistering fails; `nil` when none was persisted.
    ///
    /// Only the records of the owners who can hold one are looked at (issue 24: every user's were
    /// searched and copied at every `Unregister`): when every path has a live registration,
    /// its owner's and the caller's; else (a registration not restored yet) every owner's.
    /// - Parameters:
    ///   - paths: the paths unregistered.
    ///   - peer: the caller.
    func forgetPersistentRecords(_ paths: [String], peer: PeerCredentials) throws(VarlinkError) -> PlatformState? {
        let wanted = Set(paths)
        var candidates: [UInt32]? = [peer.uid]
        for path in wanted {
            guard let owner = platform.record(for: path)?.owner else {
                candidates = nil
                break
            }
            if candidates?.contains(owner) == false { candidates?.append(owner) }
        }
        guard platform.state.holdsRegistration(of: wanted, owners: candidates) else { return nil }
        var owners: Set<UInt32> = []
        let (old, new) = platform.changeState { state in
            owners = state.removeRegistrations(of: wanted, owners: candidates)
        }
        do {
            // Only the files of the uids whose records went are compared and written.
            try PlatformStateStore(directory: store.directory).save(new, replacing: old, uids: owners)
        } catch {
            platform.restoreState(old)
            throw VarlinkError(
                RegistryInterface.ErrorName.persistenceFailed,
                [
                    "path": .string(PlatformStateStore(directory: store.directory).folder),
                    "reason": .string(error.description),
                ])
        }
        return old
    }

    /// Puts persistent registrations back after an `Unregister` that failed.
    func restorePersistentRecords(_ state: PlatformState) {
        let current = platform.state
        platform.restoreState(state)
        try? PlatformStateStore(directory: store.directory).save(state, replacing: current)
    }
}

import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Synchronization
import Varlink

extension RegistryService {
    /// Refuses peers the access policy does not allow to change the registry.
    func requireChangeRights(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) {
        guard settings.withLock({ $0.access }).mayChangeRegistry(peer) else {
            logger.warning("refused \(call.methodName) from \(peer): not an allowed uid or gid (allow-uid, allow-gid)")
            throw VarlinkError(
                RegistryInterface.ErrorName.permissionDenied,
                ["method": .string(call.method), "uid": .int(Int(peer.uid)), "gid": .int(Int(peer.gid))])
        }
    }

    func register(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let reader = try ParameterReader(call, allowed: ["paths", "persist", "scope"])
        let paths = try reader.stringArray(
            "paths", maximumCount: Self.maximumPathsPerCall, maximumBytes: Self.maximumPathBytes)
        let scope = try Self.scope(from: reader)
        guard !paths.isEmpty else { throw VarlinkError.invalidParameter("paths") }
        guard isAdministrator(peer) else { return try registerOwn(paths, scope: scope, call: call, peer: peer) }
        let persist = scope == .persistent
        let roots = settings.withLock { $0.allowedRoots }
        var resolved: [String] = []
        for path in paths {
            do {
                // `[X, X]` (or two spellings of X) registers and persists X once.
                let checked = try roots.validate(path)
                if !resolved.contains(checked) { resolved.append(checked) }
            } catch {
                logger.warning("refused Register of \(path) from \(peer): \(error)")
                throw Self.varlinkError(error, allowedRoots: roots.roots)
            }
        }
        let validated = resolved
        logger.info("registering \(validated.joined(separator: ", ")) for \(peer)")
        let records = validated.map {
            RegistrationRecord(
                path: $0, owner: peer.uid, scope: scope, isPrivate: false,
                connection: scope == .connection ? peer.connection : 0)
        }
        if scope == .connection { platform.beginConnectionRegister(peer.connection) }
        return .deferred { [self] in
            Result { () throws(VarlinkError) -> [String: JSONValue] in
                try performRecordedRegister(records, peer: peer) { () throws(VarlinkError) in
                    try performRegister(validated, persist: persist, peer: peer)
                }
            }
        }
    }

    func performRegister(_ paths: [String], persist: Bool, peer: PeerCredentials) throws(VarlinkError)
        -> [String: JSONValue]
    {
        // A directory's own symlinks must not lead the scan outside the roots either; this walk
        // may be long, so it runs here on the worker rather than on the event loop.
        let roots = settings.withLock { $0.allowedRoots }
        try refuseEscapingLinks(in: paths, roots: roots, peer: peer)
        let report: RegistrationReport
        do {
            report = try registry.register(paths: paths, confinedTo: roots.resolvedRoots)
        } catch {
            throw Self.varlinkError(error)
        }
        if persist {
            let saved = persisted.withLock { $0 }
            var updated = saved
            for path in paths where !updated.contains(path) { updated.append(path) }
            do {
                try store.save(updated, owners: persistedOwners(updated))
                persisted.withLock { $0 = updated }
            } catch {
                // Not saved, so not registered either: the caller sees one consistent outcome.
                _ = try? registry.unregister(paths: paths)
                logger.error("Register of \(paths.joined(separator: ", ")) rolled back: \(error)")
                throw VarlinkError(
                    RegistryInterface.ErrorName.persistenceFailed,
                    ["path": .string(store.path), "reason": .string(error.description)])
            }
        }
        logger.info(
            "registered \(paths.joined(separator: ", "))\(persist ? " (persisted)" : "") for \(peer): "
                + "\(counted(report.added.count, "face")) added, generation \(report.generation)")
        // A single file too: a change no longer rescans every root, so an unwatched file would
        // wait for an explicit Rescan.
        if let callback = rootRegistered.withLock({ $0 }) {
            for path in paths { callback(path) }
        }
        return [
            "added": .array(report.added.map(\.jsonValue)),
            "problems": .array(
                report.problems.filter { problem in paths.contains { problem.path.hasPrefix($0) } }
                    .map { ["path": .string($0.path), "reason": .string($0.reason)] }),
            "generation": .int(report.generation),
        ]
    }

    func unregister(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let reader = try ParameterReader(call, allowed: ["paths"])
        let paths = try reader.stringArray(
            "paths", maximumCount: Self.maximumPathsPerCall, maximumBytes: Self.maximumPathBytes)
        guard !paths.isEmpty else { throw VarlinkError.invalidParameter("paths") }
        // A registered path is stored with symlinks resolved; resolve the caller's the same way when it still exists.
        let resolved = paths.map { AllowedRoots.realPath($0) ?? $0 }
        if !isAdministrator(peer) { try requireOwnRegistrations(resolved, call: call, peer: peer) }
        return .deferred { [self] in
            Result { () throws(VarlinkError) -> [String: JSONValue] in
                try performUnregister(resolved, peer: peer)
            }
        }
    }

    private func performUnregister(_ resolved: [String], peer: PeerCredentials) throws(VarlinkError)
        -> [String: JSONValue]
    {
        // A user's persistent registration leaves the state file first: a failure there changes nothing.
        let stateBefore = try forgetPersistentRecords(resolved, peer: peer)
        // A persistent registration not restored yet after the start (issue 24) is not in the
        // registry: leaving the state file and the pending restore is all its Unregister does.
        let pending = dropPendingRestores(resolved)
        let registered = resolved.filter { !pending.contains($0) }
        let report: RegistrationReport
        do {
            report =
                registered.isEmpty
                ? RegistrationReport(generation: registry.index.generation)
                : try registry.unregister(paths: registered)
        } catch {
            if let stateBefore { restorePersistentRecords(stateBefore) }
            restorePendingRestores(pending, from: stateBefore)
            throw Self.varlinkError(error)
        }
        platform.remove(paths: resolved)
        let saved = persisted.withLock { $0 }
        let remaining = saved.filter { !resolved.contains($0) }
        if remaining.count != saved.count {
            do {
                try store.save(remaining, owners: persistedOwners(remaining))
                persisted.withLock { $0 = remaining }
            } catch {
                // Not saved, so not unregistered either (as Register rolls back): the registration
                // stays in memory as it stays on disk, and the caller sees one consistent outcome.
                let roots = settings.withLock { $0.allowedRoots }
                _ = try? registry.register(paths: resolved, confinedTo: roots.resolvedRoots)
                logger.error("Unregister of \(resolved.joined(separator: ", ")) rolled back: \(error)")
                throw VarlinkError(
                    RegistryInterface.ErrorName.persistenceFailed,
                    ["path": .string(store.path), "reason": .string(error.description)])
            }
        }
        logger.info(
            "unregistered \(resolved.joined(separator: ", ")) for \(peer): \(counted(report.removed.count, "face")) removed"
        )
        return ["removed": .array(report.removed.map(\.jsonValue)), "generation": .int(report.generation)]
    }

    func rescan(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        _ = try ParameterReader(call, allowed: [])
        try requireChangeRights(call, peer: peer)
        return .deferred { [self] in
            // Permissions may have changed with no file changing: every file is asked about again.
            let before = Set(restrictedFiles(registry.index))
            forgetReadability()
            let report = registry.rescan()
            // A file may have become restricted (or readable again) through its permissions alone,
            // with no face changed and no new generation: what is published and cached follows
            // (issue 24: the snapshot kept such a file until the next generation).
            if Set(restrictedFiles(registry.index)) != before {
                invalidateCaches()
                warmViews()
            }
            logger.info("rescan for \(peer): \(report.added.count) added, \(report.removed.count) removed")
            return .success([
                "added": .array(report.added.map(\.jsonValue)), "removed": .array(report.removed.map(\.jsonValue)),
                "problems": .array(report.problems.map { ["path": .string($0.path), "reason": .string($0.reason)] }),
                "generation": .int(report.generation),
            ])
        }
    }
}

extension RegistryService {
    /// Refuses a `Register` of a directory holding a symbolic link that leads outside `roots`.
    ///
    /// The walk may be long, so callers run it on the change worker, not on an event loop.
    ///
    /// - Parameters:
    ///   - paths: the paths asked for; those that are not directories are skipped.
    ///   - roots: the roots the registration must stay inside.
    ///   - peer: the caller, for the log.
    /// - Throws: `PathNotAllowed`, naming the link, for the first escaping link.
    func refuseEscapingLinks(in paths: [String], roots: AllowedRoots, peer: PeerCredentials) throws(VarlinkError) {
        for path in paths {
            guard (try? Syscall.status(ofPath: path, followLinks: true))?.kind == .directory else { continue }
            if let escape = roots.firstEscapingLink(under: path) {
                let refusal = PathRefusal.escapingLink(path: path, link: escape.link, target: escape.target)
                logger.warning("refused Register of \(path) from \(peer): \(refusal)")
                throw Self.varlinkError(refusal, allowedRoots: roots.roots)
            }
        }
    }
}

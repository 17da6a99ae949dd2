import FontRegCore
import FontRegJSON
import FontRegSystem
import Synchronization
import Varlink

/// Who sees what (issue 15): every read goes through ``RegistryService/view(for:)``.
extension RegistryService {
    /// The faces `peer` may see now, built once per generation and change of the platform state.
    ///
    /// Administrators see what every other user sees: the public faces, and their own private
    /// ones. A user's private fonts are visible to other users only with `share-user-fonts`.
    /// A face whose file not every user may read is visible only to callers the kernel lets open
    /// it (their uid, gid and groups; root sees it; ``FileReadability``).
    ///
    /// - Parameters:
    ///   - peer: the caller.
    ///   - asked: whether a caller asked (a query), so that an owner of private fonts counts as
    ///     active (``PlatformRegistry/activeOwnerWindow``); `false` when the daemon warms views.
    package func view(for peer: PeerCredentials, asked: Bool = true) -> VisibleView {
        let index = registry.index
        let (roots, disabled, epoch, known):
            (PrivateRoots, [DisabledEntry], Int, (restricted: [String], version: Int)?) =
                platform.live.withLock { live in
                    let roots = live.privateRoots()
                    // In the same lock: an owner of private fonts asking counts as active.
                    if asked, roots.hasOwner(peer.uid) {
                        live.noteOwnerAsked(
                            peer.uid, now: MonotonicClock.microseconds,
                            window: platform.activeOwnerWindow.load(ordering: .relaxed))
                    }
                    return (
                        roots, live.state.disabled, live.epoch,
                        live.readability.generation == index.generation && !live.readability.stale
                            ? (restricted: live.readability.restricted, version: live.readability.version) : nil
                    )
                }
        let (restricted, version) = known ?? readability(index)
        // The common case (nothing private, nothing disabled, every file readable by all) costs one short lock.
        if roots.isEmpty && disabled.isEmpty && restricted.isEmpty { return VisibleView(whole: index) }
        let share = settings.withLock { $0.platform.shareUserFonts }
        let owners = roots.owners.filter { share || $0 == peer.uid }
        let ownersKey = owners.sorted().map(String.init).joined(separator: ",")
        let hidden =
            restricted.isEmpty
            ? []
            : hiddenRestricted(
                restricted, peer: peer, roots: roots, owners: owners,
                ownersKey: ownersKey, version: version)
        return view(
            index: index, roots: roots, disabled: disabled, epoch: epoch, owners: owners, ownersKey: ownersKey,
            hidden: hidden, restricted: restricted, version: version)
    }

    /// The view of `index` showing the private faces of `owners` and hiding the restricted files at `hidden`.
    private func view(
        index: FontIndex, roots: PrivateRoots, disabled: [DisabledEntry], epoch: Int,
        owners: Set<UInt32>, ownersKey: String, hidden: [Int], restricted: [String], version: Int
    ) -> VisibleView {
        // The view depends on the caller only through the private owners it shows and the
        // restricted files it may not read: a user's disabled entry hides only that user's own
        // faces, whoever looks (issue 24: keyed by uid whenever any user had one, 300 uids built
        // 300 views, 75 MB → 810 MB); callers who may read the same restricted files share one.
        var key = "g\(index.generation)e\(epoch)o" + ownersKey
        // Positions in one classification's list: the version keeps two lists' positions apart.
        if !hidden.isEmpty { key += "r\(version)h" + FileReadability.spelling(hidden) }
        if let cached = platform.live.withLock({ live -> VisibleView? in
            guard live.viewsBuiltFor == (index.generation, epoch) else {
                live.views = [:]
                live.viewBytes = 0
                live.viewsBuiltFor = (index.generation, epoch)
                return nil
            }
            return live.views[key]
        }) {
            return cached
        }
        let view = VisibleView(
            index: index, key: key, owners: owners, privateRoots: roots, disabledEntries: disabled,
            directories: registry.registeredPaths, hiddenFiles: Set(hidden.map { restricted[$0] }))
        platform.live.withLock { live in
            guard live.viewsBuiltFor == (index.generation, epoch) else { return }
            // One view per set of owners shown at most; bounded in count and in bytes.
            if live.views.count >= Self.maximumViews
                || live.viewBytes + view.estimatedBytes > Self.maximumViewBytes
            {
                live.views = [:]
                live.viewBytes = 0
            }
            if live.views.updateValue(view, forKey: key) == nil { live.viewBytes += view.estimatedBytes }
        }
        return view
    }

    /// The restricted files of `index` (``FileReadability``), found once per generation: by the
    /// thread that made the change (``warmViews()``), or else by the first reader. Only files new
    /// or changed since the last generation are asked about, unless a `Rescan` made it stale.
    func restrictedFiles(_ index: FontIndex) -> [String] {
        readability(index).restricted
    }

    /// The restricted files of `index` and the classification's version (for views' keys).
    ///
    /// The first classification of a process reuses the answers of ``PersistedReadability``
    /// (the last one an earlier run wrote beside the index file) whose files and directories
    /// are unchanged; every classification that asked the kernel about a file writes the file again.
    func readability(_ index: FontIndex) -> (restricted: [String], version: Int) {
        let (current, first, reusing, kept) = platform.live.withLock {
            live -> (
                (restricted: [String], version: Int)?, Bool,
                (known: [String: FileReadability.Known], directories: [String: FileFingerprint]),
                PersistedReadability?
            ) in
            let readability = live.readability
            let current = readability.generation == index.generation && !readability.stale
            return (
                current ? (restricted: readability.restricted, version: readability.version) : nil,
                readability.generation < 0 && !readability.stale,
                readability.stale ? ([:], [:]) : (readability.known, readability.directories),
                readability.stale ? nil : readability.kept
            )
        }
        if let current { return current }
        let directory = registry.cacheDirectory
        // Decoded out of the lock: the answers a warm start reused whole, for a classification after a change.
        var earlier = kept.map { (known: $0.files, directories: $0.directories) } ?? reusing
        if first {
            // Handed out once: freed here even when no kept classification uses them.
            let seen = registry.takeWarmStartSeenFiles()
            let (persisted, refusal) = PersistedReadability.read(directory: directory)
            if let refusal { logger.warning(refusal) }
            if let persisted {
                if let table = registry.indexedFileTable(of: index),
                    let restricted = FileReadability.reusingWhole(table, kept: persisted, seen: seen)
                {
                    return keep(restricted, kept: persisted, generation: index.generation)
                }
                earlier = (known: persisted.files, directories: persisted.directories)
            }
        }
        let found = FileReadability.classify(index, files: { registry.indexedFile(path: $0) }, reusing: earlier)
        if found.asked > 0 || (first && found.known.count != earlier.known.count) {
            do {
                try PersistedReadability(files: found.known, directories: found.directories).write(
                    directory: directory)
            } catch {
                logger.warning(
                    "cannot keep the file classification in \(directory) (\(error)); the next start asks again")
            }
        }
        if first && !found.known.isEmpty {
            logger.info(
                "file readability: \(found.known.count - found.asked) of \(found.known.count) files' answers reused, "
                    + "\(found.asked) asked")
        }
        return platform.live.withLock { live in
            guard live.readability.generation < index.generation || live.readability.stale else {
                return (live.readability.restricted, live.readability.version)
            }
            live.readability = FileReadability(
                generation: index.generation, version: live.readability.version + 1, known: found.known,
                directories: found.directories, restricted: found.restricted, previous: live.readability.restricted)
            return (found.restricted, live.readability.version)
        }
    }

    /// Records a first classification that reused every answer of `kept` (nothing is written:
    /// the kept file already says it all).
    private func keep(_ restricted: [String], kept: PersistedReadability, generation: Int)
        -> (restricted: [String], version: Int)
    {
        if kept.fileCount > 0 {
            logger.info(
                "file readability: \(kept.fileCount) of \(kept.fileCount) files' answers reused, 0 asked")
        }
        return platform.live.withLock { live in
            guard live.readability.generation < generation || live.readability.stale else {
                return (live.readability.restricted, live.readability.version)
            }
            live.readability = FileReadability(
                generation: generation, version: live.readability.version + 1, kept: kept, restricted: restricted,
                previous: live.readability.restricted)
            return (restricted, live.readability.version)
        }
    }

    /// Makes the next classification ask about every file again (before a `Rescan`: permissions
    /// may have changed without the files changing).
    func forgetReadability() {
        platform.live.withLock { $0.readability.stale = true }
    }

    /// The positions in `restricted` of the files `peer` may not read among those its private
    /// owners leave visible (the others are hidden anyway); asked of the kernel once per caller
    /// credentials and classification, bounded.
    private func hiddenRestricted(
        _ restricted: [String], peer: PeerCredentials, roots: PrivateRoots, owners: Set<UInt32>,
        ownersKey: String, version: Int
    ) -> [Int] {
        if peer.uid == 0 { return [] }  // root reads every file
        let key = FileReadability.CallerKey(uid: peer.uid, gid: peer.gid, groups: peer.groups, owners: ownersKey)
        if let known = platform.live.withLock({
            $0.readability.version == version ? $0.readability.hiddenByCaller[key] : nil
        }) {
            return known
        }
        let candidates = restricted.indices.filter { position in
            let owner = roots.owner(of: restricted[position])
            return owner.map(owners.contains) ?? true
        }
        let hidden = FileReadability.hidden(
            candidates, of: restricted, files: { registry.indexedFile(path: $0) }, peer: peer)
        platform.live.withLock { live in
            guard live.readability.version == version else { return }
            if live.readability.hiddenByCaller.count >= FileReadability.maximumCallers {
                live.readability.hiddenByCaller = [:]
            }
            live.readability.hiddenByCaller[key] = hidden
        }
        return hidden
    }

    /// The most views kept at once.
    package static let maximumViews = 256
    /// The most bytes the views kept may take (estimated: ``VisibleView/estimatedBytes``).
    package static let maximumViewBytes = 64 << 20

    /// How many views are kept now, and their estimated bytes.
    package var keptViews: (count: Int, bytes: Int) {
        platform.live.withLock { ($0.views.count, $0.viewBytes) }
    }

    /// Builds, off the event loops, the views the next queries will need after a change: the
    /// public one and each owner's of private fonts (building one of a large index takes long
    /// enough that a loop should not). Call on the thread that made the change.
    /// The coverage index `ResolveText`'s registry-wide fallback reads is built here too, for the
    /// whole index and each view warmed, unless `coverage` is false: the daemon's start leaves it
    /// for ``prepareTextCoverage()`` after `READY=1` (it was most of a warm start's work).
    ///
    /// - Parameters:
    ///   - coverage: whether to build the coverage indexes now.
    ///   - owner: the uid whose private registrations alone the change added or removed, if
    ///     so: only the view of users without fonts of their own, that owner's and those of the
    ///     owners who asked for theirs within ``PlatformRegistry/activeOwnerWindow`` are built
    ///     (unless `share-user-fonts` shows the owner's fonts to all). An idle owner's view is
    ///     built at that owner's next query (issue 24: one user's `Register` built a view and a
    ///     coverage index for each of the other 40 owners, two fifths of its cost).
    package func warmViews(coverage: Bool = true, changedBy owner: UInt32? = nil) {
        let views = warmedViews(changedBy: owner)
        guard coverage else { return }
        textPlans.prepare(registry.index)
        for view in views where !view.key.isEmpty { view.textPlans.prepare(view.index) }
    }

    /// Builds the coverage indexes ``warmViews(coverage:)`` left: of the whole index and of each
    /// view it warms. Call it off the event loops (the daemon runs it as the change worker's first
    /// job after `READY=1`); a `ResolveText` arriving meanwhile waits for this one build (each
    /// ``FallbackPlanCache`` builds under its lock) rather than building its own.
    package func prepareTextCoverage() {
        warmViews(coverage: true)
        let inPlace = textPlans.coverageReadInPlace == true
        logger.info(
            inPlace
                ? "text coverage: read in place from the index file"
                : "text coverage: built in memory (\(registry.index.familyCount) families)")
    }

    /// The views ``warmViews(coverage:)`` builds: the view of users without fonts of their own and
    /// each owner's of private fonts (none when every user sees the whole index); only that of
    /// `changer` among the owners when given and fonts are not shared.
    private func warmedViews(changedBy changer: UInt32? = nil) -> [VisibleView] {
        let index = registry.index
        let restricted = restrictedFiles(index)
        var owners = platform.privateRoots.owners
        guard !owners.isEmpty || !platform.state.disabled.isEmpty || !restricted.isEmpty else { return [] }
        if let changer, !settings.withLock({ $0.platform.shareUserFonts }) {
            // The changer's, and those of the owners who asked for theirs lately: built here,
            // off the event loops, rather than at their next query on a loop. An idle owner's
            // is built if it ever asks again.
            let now = MonotonicClock.microseconds
            let window = platform.activeOwnerWindow.load(ordering: .relaxed)
            let active = platform.live.withLock { live in
                Set(live.ownersLastAsked.filter { now &- $0.value <= window }.keys)
            }
            owners = owners.intersection(active.union([changer]))
        }
        // A uid no registration has, with no groups: the view of every user without fonts of
        // their own who may read no restricted file.
        let stranger = FileReadability.stranger
        var views = [view(for: PeerCredentials(pid: 0, uid: stranger, gid: stranger), asked: false)]
        for owner in owners.prefix(64) {
            views.append(view(for: PeerCredentials(pid: 0, uid: owner, gid: stranger), asked: false))
        }
        return views
    }

    /// Whether `uid` may see `face` (and so open it, resolve to it, or list it): it is
    /// registered, not in another user's private registration the configuration does not share,
    /// and not disabled. For `OpenFace` and other readers that hold a face from elsewhere.
    ///
    /// - Parameters:
    ///   - peer: the caller.
    ///   - face: a face of the index.
    func canSee(_ peer: PeerCredentials, face: FaceRecord) -> Bool {
        view(for: peer).index.face(postscriptName: face.postscriptName).map {
            $0.file == face.file && $0.freetypeIndex == face.freetypeIndex
        } ?? false
    }

    /// The face `peer` may see under this PostScript name, or `nil`.
    package func visibleFace(postscriptName: String, peer: PeerCredentials) -> FaceRecord? {
        view(for: peer).index.face(postscriptName: postscriptName)
    }

    /// A resolver over a view, with the registry's rules and system fallback.
    func resolver(for view: VisibleView) -> Resolver {
        let whole = registry.resolver
        guard !view.key.isEmpty else { return whole }
        return Resolver(index: view.index, rules: whole.rules, systemFallback: whole.systemFallback)
    }

    /// Resolves in a view; when a disabled face would have served the query, the trace says so.
    func resolve(_ query: ResolveQuery, in view: VisibleView) throws(ResolveError) -> Resolution {
        let whole = registry.resolver
        var resolution = try resolver(for: view).resolve(query)
        if let withDisabled = view.withDisabled,
            let other = try? Resolver(index: withDisabled, rules: whole.rules, systemFallback: whole.systemFallback)
                .resolve(query),
            other.face.file != resolution.face.file || other.face.freetypeIndex != resolution.face.freetypeIndex,
            view.disabled.contains(where: { $0.file == other.face.file && $0.freetypeIndex == other.face.freetypeIndex }
            )
        {
            resolution.steps.append(
                .text(
                    "\(other.face.postscriptName) (\(other.face.file)) is disabled; it would have served this query. "
                        + "Enabling it again (the Enable method) makes it serve."))
        }
        return resolution
    }

    /// The query with the caller's Bold Text setting and the configured policy where it did not say.
    ///
    /// - Parameters:
    ///   - query: the query as read.
    ///   - parameters: the call's parameters, to tell "not given" from `false`.
    ///   - uid: the peer's uid.
    func applyingPreferences(_ query: ResolveQuery, parameters: [String: JSONValue], uid: UInt32) -> ResolveQuery {
        var query = query
        if parameters["boldText"] == nil || parameters["boldText"] == .null { query.boldText = boldText(for: uid).on }
        if parameters["boldPolicy"] == nil || parameters["boldPolicy"] == .null,
            let policy = settings.withLock({ $0.platform.boldPolicy })
        {
            query.boldPolicy = policy
        }
        return query
    }

    /// The Bold Text setting of `uid` and where it comes from (`user` or `default`).
    package func boldText(for uid: UInt32) -> (on: Bool, source: String) {
        if let own = platform.live.withLock({ $0.state.boldText[uid] }) { return (own, "user") }
        return (settings.withLock { $0.platform.boldText }, "default")
    }

    /// The faces of a change report that `Monitor` may show to every subscriber: those of public
    /// registrations (the server sends one event to all, so a user's private faces are left out).
    /// The number of faces every user sees: the index's count when nothing is private (no decoding).
    /// Faces of files not every user may read are left out too (``FileReadability``).
    func publicFaceCount(_ index: FontIndex) -> Int {
        platform.privateRoots.isEmpty && restrictedFiles(index).isEmpty
            ? index.faceCount : publicFaces(index.faces).count
    }

    func publicFaces(_ faces: [FaceRecord]) -> [FaceRecord] {
        let roots = platform.privateRoots
        // Faces a change removed were restricted, if at all, in the generation before.
        let restricted = Set(restrictedFiles(registry.index)).union(platform.live.withLock { $0.readability.previous })
        guard !roots.isEmpty || !restricted.isEmpty else { return faces }
        return faces.filter {
            !restricted.contains($0.file) && roots.owner(of: $0.file) == nil
        }
    }
}

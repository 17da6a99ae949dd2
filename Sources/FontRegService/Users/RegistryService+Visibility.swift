import FontRegCore
import FontRegJSON
import Synchronization

/// Who sees what (issue 15): every read goes through ``RegistryService/view(for:)``.
extension RegistryService {
    /// The faces `uid` may see now, built once per generation and change of the platform state.
    ///
    /// Administrators see what every other user sees: the public faces, and their own private
    /// ones. A user's private fonts are visible to other users only with `share-user-fonts`.
    package func view(for uid: UInt32) -> VisibleView {
        let index = registry.index
        let (roots, disabled, epoch): ([(path: String, owner: UInt32)], [DisabledEntry], Int) = platform.live.withLock {
            live in
            (live.records.values.filter(\.isPrivate).map { ($0.path, $0.owner) }, live.state.disabled, live.epoch)
        }
        // The common case (nothing private, nothing disabled) costs one short lock.
        if roots.isEmpty && disabled.isEmpty { return VisibleView(whole: index) }
        let share = settings.withLock { $0.platform.shareUserFonts }
        let owners = Set(roots.map(\.owner)).filter { share || $0 == uid }
        // The view depends on the caller only through the private owners it shows: a user's
        // disabled entry hides only that user's own faces, whoever looks (issue 24: keyed by uid
        // whenever any user had one, 300 uids built 300 views, 75 MB → 810 MB).
        let key = "g\(index.generation)e\(epoch)o" + owners.sorted().map(String.init).joined(separator: ",")
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
            directories: registry.registeredPaths)
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
    /// whole index and each view warmed.
    package func warmViews() {
        textPlans.prepare(registry.index)
        let owners = Set(platform.privateRoots.map(\.owner))
        guard !owners.isEmpty || !platform.state.disabled.isEmpty else { return }
        // A uid no registration has: the view of every user without fonts of their own.
        var views = [view(for: UInt32.max)]
        for owner in owners.prefix(64) { views.append(view(for: owner)) }
        for view in views where !view.key.isEmpty { view.textPlans.prepare(view.index) }
    }

    /// Whether `uid` may see `face` (and so open it, resolve to it, or list it): it is
    /// registered, not in another user's private registration the configuration does not share,
    /// and not disabled. For `OpenFace` and other readers that hold a face from elsewhere.
    ///
    /// - Parameters:
    ///   - uid: the peer's uid.
    ///   - face: a face of the index.
    func canSee(uid: UInt32, face: FaceRecord) -> Bool {
        view(for: uid).index.face(postscriptName: face.postscriptName).map {
            $0.file == face.file && $0.freetypeIndex == face.freetypeIndex
        } ?? false
    }

    /// The face `uid` may see under this PostScript name, or `nil`.
    package func visibleFace(postscriptName: String, uid: UInt32) -> FaceRecord? {
        view(for: uid).index.face(postscriptName: postscriptName)
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
    func publicFaceCount(_ index: FontIndex) -> Int {
        platform.privateRoots.isEmpty ? index.faceCount : publicFaces(index.faces).count
    }

    func publicFaces(_ faces: [FaceRecord]) -> [FaceRecord] {
        let roots = platform.privateRoots
        guard !roots.isEmpty else { return faces }
        return faces.filter { PlatformRegistry.owner(of: $0.file, privateRoots: roots) == nil }
    }
}

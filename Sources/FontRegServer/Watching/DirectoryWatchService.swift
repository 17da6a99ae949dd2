import Dispatch
import FontRegCore
import FontRegService
import FontRegSystem
import Synchronization

/// The font directory watcher as a service: rescans the registry when watched directories change.
///
/// A rescan walks only the roots that changed (the others keep their last scan) and is the
/// change of whoever registered the root that changed (issue 24: a user
/// flooding its own folder with 145k file events slowed root's `Register`+`Unregister` pair
/// from 0.16 to 0.44 s, since every burst rescanned on the watcher's own thread, ahead of
/// everyone's changes). It is queued on the change worker in that user's turn, paced as the
/// user's own calls are, and coalesced: an owner has at most one rescan waiting, however many
/// bursts come before it runs.
final class DirectoryWatchService: DaemonService {
    package let name = "watcher"
    private let watcher: FontDirectoryWatcher
    private let registry: FontRegistry
    private let service: RegistryService
    private let queue: @Sendable (UInt32?, Bool, @escaping @Sendable () -> Void) -> Void
    private let logger: Logger
    /// The roots changed since the rescan queued for each owner (`nil`: the server's) started.
    private let pending = Mutex<[UInt32?: Set<String>]>([:])

    /// Watches for `registry`; directories the service registers later are watched too.
    ///
    /// - Parameter queue: queues a job on the change worker for a uid (`nil`: the server),
    ///   paced or not (``VarlinkServer/queueChange(for:paced:_:)``).
    package init(
        watcher: FontDirectoryWatcher, registry: FontRegistry, service: RegistryService,
        queue: @escaping @Sendable (UInt32?, Bool, @escaping @Sendable () -> Void) -> Void, logger: Logger
    ) {
        self.watcher = watcher
        self.registry = registry
        self.service = service
        self.queue = queue
        self.logger = logger
        service.rootRegistered.withLock { $0 = { watcher.watch([$0]) } }
    }

    /// Starts the watcher thread.
    package func start() {
        watcher.start { [self] roots in changed(roots) }
    }

    /// Queues a rescan for each owner of `roots` that has none waiting.
    func changed(_ roots: [String]) {
        let registered = Set(registry.registeredPaths)
        var byOwner: [UInt32?: (paced: Bool, roots: [String])] = [:]
        for root in roots {
            guard let owner = service.watchedRootOwner(root, registered: registered) else { continue }
            byOwner[owner.uid, default: (owner.paced, [])].roots.append(root)
        }
        for (uid, owned) in byOwner {
            let queued = pending.withLock { pending in
                defer { pending[uid, default: []].formUnion(owned.roots) }
                return pending[uid] != nil
            }
            if queued { continue }
            queue(uid, owned.paced) { [self] in rescan(for: uid) }
        }
    }

    /// The rescan queued for `uid`: takes the roots changed until now, so bursts after this queue another.
    private func rescan(for uid: UInt32?) {
        let roots = pending.withLock { $0.removeValue(forKey: uid) } ?? []
        // Only the roots whose folders changed: the others' last scans still hold (issue 24).
        let report = registry.rescan(roots: Array(roots))
        let whose = uid.map { "uid \($0)" } ?? "the server"
        logger.debug("rescanned after changes in \(roots.sorted().joined(separator: ", ")) (\(whose))")
        if !report.added.isEmpty || !report.removed.isEmpty {
            logger.info(
                "font directories changed: \(counted(report.added.count, "face")) added, \(report.removed.count) removed"
            )
        }
    }

    /// Ends the watcher thread (after a rescan it is running).
    package func stop(before deadline: DispatchTime) -> Bool {
        watcher.stop(before: deadline)
    }
}

import Dispatch
import FontRegCore
import FontRegService
import FontRegSystem
import Synchronization

/// The font directory watcher as a service: rescans the registry when watched directories change.
final class DirectoryWatchService: DaemonService {
    package let name = "watcher"
    private let watcher: FontDirectoryWatcher
    private let registry: FontRegistry
    private let logger: Logger

    /// Watches for `registry`; directories the service registers later are watched too.
    package init(watcher: FontDirectoryWatcher, registry: FontRegistry, service: RegistryService, logger: Logger) {
        self.watcher = watcher
        self.registry = registry
        self.logger = logger
        service.directoryRegistered.withLock { $0 = { watcher.watch([$0]) } }
    }

    /// Starts the watcher thread.
    package func start() {
        let registry = registry
        let logger = logger
        watcher.start {
            let report = registry.rescan()
            if !report.added.isEmpty || !report.removed.isEmpty {
                logger.info(
                    "font directories changed: \(counted(report.added.count, "face")) added, \(report.removed.count) removed"
                )
            }
        }
    }

    /// Ends the watcher thread (after a rescan it is running).
    package func stop(before deadline: DispatchTime) -> Bool {
        watcher.stop(before: deadline)
    }
}

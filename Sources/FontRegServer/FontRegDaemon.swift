import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Foundation
import Synchronization
import Varlink

/// The daemon as a whole: reads its configuration, builds the registry, serves it, and
/// handles signals, sd_notify, the watchdog and inotify until SIGTERM.
///
/// `fontregd`'s `main` is one call to ``main(arguments:)``.
package enum FontRegDaemon {
    /// Exit codes, after the sysexits convention.
    package enum ExitCode {
        /// Stopped by SIGTERM or SIGINT, or printed help.
        package static let success: Int32 = 0
        /// Any other failure.
        package static let failure: Int32 = 1
        /// A bad flag or config file (`EX_USAGE`).
        package static let usage: Int32 = 64
        /// The socket, state or index could not be set up (`EX_UNAVAILABLE`).
        package static let unavailable: Int32 = 69
    }

    /// Runs the daemon; returns the process exit code.
    package static func main(arguments: [String]) -> Int32 {
        SignalWatcher.blockDaemonSignals()
        let command: DaemonCommand
        do {
            command = try DaemonConfiguration.parse(arguments: arguments)
        } catch {
            Logger().error(error.description)
            return ExitCode.usage
        }
        switch command {
        case .help:
            print(DaemonConfiguration.helpText, terminator: "")
            return ExitCode.success
        case .version:
            print("fontregd \(FontRegVersion.current)")
            return ExitCode.success
        case .run(let configuration, let overrides):
            var logger = Logger(minimumLevel: configuration.verbose ? .debug : .info)
            logger.journalPrefixes = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
            return run(configuration, overrides: overrides, logger: logger)
        }
    }

    static func run(_ configuration: DaemonConfiguration, overrides: [(String, String)], logger: Logger) -> Int32 {
        let notifier = SystemdNotifier()
        let store = RegistrationStore(directory: configuration.stateDirectory)
        let persisted: [String]
        do {
            persisted = try store.load()
        } catch {
            logger.error(error.description)
            return ExitCode.unavailable
        }
        let started = Date()
        // Watches are set before the first scan, so a change made while it runs is not missed.
        let watcher = configuration.watch ? makeWatcher(configuration, persisted: persisted, logger: logger) : nil
        let registry: FontRegistry
        do {
            registry = try makeRegistry(configuration, persisted: persisted, logger: logger)
        } catch {
            logger.error("cannot build the font index: \(error)")
            return ExitCode.unavailable
        }
        let index = registry.index
        logger.info(
            "indexed \(counted(index.faces.count, "face")) in \(counted(index.families.count, "family", plural: "families")) in "
                + "\(Int(Date().timeIntervalSince(started) * 1000)) ms; \(counted(index.problems.count, "file")) unusable"
        )
        RuleProblemLog.report(registry.rules, directory: configuration.rulesDirectory, logger: logger)

        let listeners: [ListeningSocket]
        do {
            let activated = try ListeningSocket.activated()
            if activated.isEmpty {
                listeners = [try ListeningSocket.bind(path: configuration.socketPath, mode: configuration.socketMode)]
                logger.info("listening on \(configuration.socketPath)")
            } else {
                listeners = activated
                logger.info("listening on \(activated.count) socket(s) passed by systemd")
            }
        } catch {
            logger.error(error.description)
            return ExitCode.unavailable
        }

        let service = RegistryService(
            registry: registry, store: store, persisted: persisted,
            settings: .init(access: configuration.access, allowedRoots: AllowedRoots(configuration.allowedRoots)),
            logger: logger)
        let server: VarlinkServer
        do {
            server = try VarlinkServer(
                listeners: listeners, service: service, limits: configuration.limits, threads: configuration.threads,
                logger: logger)
        } catch {
            logger.error("cannot start the server: \(error)")
            return ExitCode.unavailable
        }
        service.attach(server)
        if let watcher { startWatching(watcher, registry: registry, service: service, logger: logger) }
        server.start()
        let terminate = DispatchSemaphore(value: 0)
        let current = SharedConfiguration(configuration)
        do {
            try SignalWatcher.start(logger: logger) { signal in
                switch signal {
                case .terminate:
                    terminate.signal()
                case .reload:
                    reload(
                        current: current, overrides: overrides, registry: registry, service: service,
                        server: server, notifier: notifier, logger: logger)
                }
            }
        } catch {
            logger.error("cannot receive signals: \(error)")
            server.stop()
            return ExitCode.unavailable
        }
        notifier.ready(status: statusLine(registry))
        if let interval = notifier.watchdogInterval {
            let limit = Double(interval) / 1_000_000
            notifier.startWatchdog(interval: interval, logger: logger) { server.slowestLoopAge < limit }
        }

        terminate.wait()
        logger.info("stopping: finishing in-flight calls")
        notifier.stopping()
        server.stop()
        logger.info("stopped")
        return ExitCode.success
    }

    /// The registry for a configuration, with the persisted registrations as roots of their own.
    static func makeRegistry(_ configuration: DaemonConfiguration, persisted: [String], logger: Logger)
        throws(RegistryError)
        -> FontRegistry
    {
        var directories: [String] = []
        var files: [String] = []
        for path in configuration.fontDirectories + persisted {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                logger.warning(
                    "\(path) does not exist; skipped (create it, or fix --fonts or the persisted registration)")
                continue
            }
            if isDirectory.boolValue {
                if !directories.contains(path) { directories.append(path) }
            } else if !files.contains(path) {
                files.append(path)
            }
        }
        var cacheDirectory: String? = configuration.cacheDirectory
        do {
            try Syscall.makeDirectories(configuration.cacheDirectory)
        } catch {
            logger.warning(
                "cannot use cache directory \(configuration.cacheDirectory) (\(error)); using a temporary one")
            cacheDirectory = nil
        }
        var registryConfiguration = RegistryConfiguration(
            fontDirectories: directories, fontFiles: files, rulesDirectory: configuration.rulesDirectory,
            includeSystemFonts: configuration.includeSystemFonts, cacheDirectory: cacheDirectory)
        // Persisted registrations came through Register: their links stay inside the allowed roots.
        let allowed = AllowedRoots(configuration.allowedRoots).resolvedRoots
        for path in persisted where !configuration.fontDirectories.contains(path) {
            registryConfiguration.confinement[path] = allowed
        }
        return try FontRegistry(configuration: registryConfiguration)
    }

    static func statusLine(_ registry: FontRegistry) -> String {
        let index = registry.index
        return
            "Serving \(counted(index.faces.count, "face")) in \(counted(index.families.count, "family", plural: "families")) (generation \(index.generation))"
    }

    private static func makeWatcher(_ configuration: DaemonConfiguration, persisted: [String], logger: Logger)
        -> FontDirectoryWatcher?
    {
        do {
            return try FontDirectoryWatcher(
                directories: configuration.fontDirectories + persisted,
                debounceMilliseconds: configuration.debounceMilliseconds, logger: logger)
        } catch {
            logger.warning("cannot watch font directories: \(error); changes need a Rescan")
            return nil
        }
    }

    private static func startWatching(
        _ watcher: FontDirectoryWatcher, registry: FontRegistry, service: RegistryService, logger: Logger
    ) {
        service.directoryRegistered.withLock { $0 = { watcher.watch([$0]) } }
        watcher.start {
            let report = registry.rescan()
            if !report.added.isEmpty || !report.removed.isEmpty {
                logger.info(
                    "font directories changed: \(counted(report.added.count, "face")) added, \(report.removed.count) removed"
                )
            }
        }
    }

    /// SIGHUP: re-reads the config file and rules, applies what can change while running, rescans.
    static func reload(
        current: SharedConfiguration, overrides: [(String, String)], registry: FontRegistry,
        service: RegistryService, server: VarlinkServer, notifier: SystemdNotifier, logger: Logger
    ) {
        notifier.reloading()
        let old = current.value
        do {
            let new = try old.reloaded(overrides: overrides)
            service.update(.init(access: new.access, allowedRoots: AllowedRoots(new.allowedRoots)))
            server.update(limits: new.limits)
            let fixedAtStart: [(String, Bool)] = [
                ("socket", old.socketPath != new.socketPath || old.socketMode != new.socketMode),
                ("state-dir", old.stateDirectory != new.stateDirectory),
                ("cache-dir", old.cacheDirectory != new.cacheDirectory),
                ("rules", old.rulesDirectory != new.rulesDirectory),
                ("system-fonts", old.includeSystemFonts != new.includeSystemFonts),
                ("threads", old.threads != new.threads),
            ]
            for (name, changed) in fixedAtStart where changed {
                logger.warning("reload: \(name) changed; it takes effect at the next start")
            }
            let removed = old.fontDirectories.filter { !new.fontDirectories.contains($0) }
            let added = new.fontDirectories.filter { !old.fontDirectories.contains($0) }
            if !removed.isEmpty { _ = try? registry.unregister(paths: removed) }
            let existing = added.filter { FileManager.default.fileExists(atPath: $0) }
            if !existing.isEmpty {
                do {
                    try registry.register(paths: existing)
                    if new.watch, let watch = service.directoryRegistered.withLock({ $0 }) {
                        for directory in existing { watch(directory) }
                    }
                } catch {
                    logger.warning("reload: \(error)")
                }
            }
            current.value = new
            logger.info("reloaded configuration from \(new.configFile)")
        } catch {
            logger.error("reload: \(error); keeping the previous configuration")
        }
        registry.reloadRules()
        RuleProblemLog.report(registry.rules, directory: current.value.rulesDirectory, logger: logger)
        service.invalidateCaches()
        let report = registry.rescan()
        logger.info("reload: rescanned, \(counted(report.added.count, "face")) added, \(report.removed.count) removed")
        notifier.send("READY=1\nSTATUS=\(statusLine(registry))")
    }
}

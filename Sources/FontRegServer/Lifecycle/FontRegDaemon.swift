import FontRegCore
import FontRegService
import FontRegSystem
import Foundation
import Synchronization

/// The daemon as a whole: reads its configuration, builds the registry, serves it, and
/// handles signals, sd_notify, the watchdog and inotify until SIGTERM.
///
/// `fontregd`'s `main` is one call to ``main(arguments:)``.
package enum FontRegDaemon {
    /// Exit codes, after the sysexits convention.
    enum ExitCode {
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
        if arguments.first == parseWorkerFlag {
            return FontParseWorker.main(
                arguments: Array(arguments.dropFirst()), program: "fontregd \(parseWorkerFlag)")
        }
        if arguments.first == IndexBuilder.flag {
            return IndexBuilder.main(arguments: Array(arguments.dropFirst()))
        }
        if arguments.first == fontconfigCacheWorkerFlag {
            return FontconfigCacheWorker.main(
                arguments: Array(arguments.dropFirst()), program: "fontregd \(fontconfigCacheWorkerFlag)")
        }
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
            let builder = IndexBuilder(daemonArguments: arguments, logger: logger)
            return run(configuration, overrides: overrides, builder: builder, logger: logger)
        }
    }

    /// How long stopping may take: the server's 5 s for in-flight calls, and room for the rest.
    static let stopDeadlineSeconds = 10.0

    /// Runs the daemon until SIGTERM: starts its services in order, waits, stops them in reverse.
    ///
    /// - Parameter builder: what builds a cold start's index in a child process.
    static func run(
        _ configuration: DaemonConfiguration, overrides: [(String, String)], builder: IndexBuilder, logger: Logger
    ) -> Int32 {
        // Before any thread starts: each extra arena keeps its own dirty pages (issue 13).
        Memory.limitArenas()
        let services = DaemonServiceGroup([], logger: logger)
        let persistence = PersistenceService(store: RegistrationStore(directory: configuration.stateDirectory))
        do {
            try services.start(persistence)
        } catch {
            logger.error("\(error)")
            return ExitCode.unavailable
        }
        guard let parts = makeParts(configuration, persistence: persistence, builder: builder, logger: logger) else {
            services.stop(within: stopDeadlineSeconds)
            return ExitCode.unavailable
        }
        // Before READY=1: the start's temporaries (a cold start's scan and build, the views, the
        // readability classification) are freed by now, but glibc keeps their pages dirty in its
        // arenas until trimmed: 5.6 MiB at 10,000 faces (issue 29, docs/benchmarks.md).
        Memory.trim()
        let terminate = DispatchSemaphore(value: 0)
        do {
            for service in try makeServices(
                parts, configuration, overrides: overrides, terminate: terminate, logger: logger)
            {
                try services.start(service)
            }
        } catch {
            services.stop(within: stopDeadlineSeconds)
            return ExitCode.unavailable
        }
        // Serving (READY=1 sent): users' persistent registrations, a chunk per change, each
        // queueing the next, so that other changes run between chunks (issue 24); the last chunk
        // builds the coverage index `ResolveText` reads. With none to restore, that index is built
        // now (a call arriving first waits for this build): each chunk's change would discard it.
        let service = parts.service
        if service.awaitsDeferredRestore {
            Self.queueRestoreChunk(service: service, server: parts.server)
        } else {
            parts.server.queueChange(for: nil, paced: false) {
                service.prepareTextCoverage()
                Memory.trim()  // the coverage build's temporaries, as before READY
            }
        }
        terminate.wait()
        logger.info("stopping: finishing in-flight calls")
        let late = services.stop(within: stopDeadlineSeconds)
        logger.info(late.isEmpty ? "stopped" : "stopped; still running at exit: \(late.joined(separator: ", "))")
        return ExitCode.success
    }

    /// Queues one chunk of the users' persistent registrations on the change worker (the
    /// server's lane, taken in turn with every uid's), and after it the next, until none is left:
    /// a change of a user or root waits behind one chunk, not the whole restore.
    ///
    /// - Parameters:
    ///   - service: the service restoring them.
    ///   - server: whose change worker runs the chunks.
    static func queueRestoreChunk(service: RegistryService, server: VarlinkServer) {
        server.queueChange(for: nil, paced: false) {
            if service.restoreDeferredUsersRegistrationsChunk() {
                queueRestoreChunk(service: service, server: server)
            } else {
                Memory.trim()  // the restore's and the coverage build's temporaries
            }
        }
    }

    /// What the services work on: the index, the service answering calls, the server and the optional watcher.
    struct Parts: Sendable {
        let registry: FontRegistry
        let service: RegistryService
        let server: VarlinkServer
        let watcher: FontDirectoryWatcher?
        /// The socket clients reach (the first listener's), beside which the snapshot is published.
        let socketPath: String
    }

    /// Builds the watcher, the index, the listening sockets, the service and the server; logs and
    /// returns `nil` when one of them cannot be set up.
    static func makeParts(
        _ configuration: DaemonConfiguration, persistence: PersistenceService, builder: IndexBuilder?, logger: Logger
    ) -> Parts? {
        var startupProblems: [StartupProblem] = []
        if let moved = persistence.movedAside {
            let path = persistence.store.path
            logger.error(
                "\(path) was corrupt: moved aside to \(moved.path) and started with no persisted registrations; "
                    + "inspect it, register the paths again with persist, then delete it")
            RegistryService.logRemovedCopies(moved, logger: logger)
            startupProblems.append(.corruptStateFile(path, movedTo: moved.path))
        }
        if let refused = persistence.refused {
            logger.error("\(refused); started with no persisted registrations")
            startupProblems.append(.stateFileNotRead(refused))
        }
        let persisted = revalidate(
            persistence.persisted, allowedRoots: AllowedRoots(configuration.allowedRoots), logger: logger
        ) { startupProblems.append(StartupProblem($0)) }
        let started = Date()
        // Watches are set before the first scan, so a change made while it runs is not missed.
        let watcher = configuration.watch ? makeWatcher(configuration, persisted: persisted, logger: logger) : nil
        let registry: FontRegistry
        do {
            registry = try makeRegistry(configuration, persisted: persisted, builder: builder, logger: logger)
        } catch {
            logger.error("cannot build the font index: \(error)")
            return nil
        }
        let index = registry.index
        if let refusal = registry.outOfProcessRefusal {
            logger.warning(
                "the index file the index builder wrote cannot be served (\(refusal)); scanned the fonts in this process"
            )
        }
        logger.info(
            registry.indexBuiltElsewhere
                ? "\(registry.startMode): the index was built by a child process and is served mapped"
                : "\(registry.startMode)")
        logWorkerConfinement(configuration, logger: logger)
        logger.info(
            "indexed \(counted(index.faceCount, "face")) in \(counted(index.familyCount, "family", plural: "families")) in "
                + "\(Int(Date().timeIntervalSince(started) * 1000)) ms; \(counted(index.problems.count, "file")) unusable"
        )
        RuleProblemLog.report(registry.rules, directory: configuration.rulesDirectory, logger: logger)
        guard let listeners = makeListeners(configuration, logger: logger) else { return nil }
        let service = RegistryService(
            registry: registry, store: persistence.store, persisted: persisted,
            settings: .init(
                access: configuration.access, allowedRoots: AllowedRoots(configuration.allowedRoots),
                platform: configuration.platform),
            logger: logger)
        // Users' own registrations come after READY (issue 24), as the change worker's first job.
        startupProblems += service.restorePlatformState(deferringUsers: true)
        // The views are built before the first call, not by it; `ResolveText`'s coverage index
        // after READY, as the change worker's first job (it was most of a warm start's work).
        service.warmViews(coverage: false)
        service.startupProblems.withLock { $0 = startupProblems }
        let server: VarlinkServer
        do {
            server = try VarlinkServer(
                listeners: listeners, service: service, errors: RegistryService.limitErrors,
                limits: configuration.serverLimits, threads: configuration.threads, logger: logger)
        } catch {
            logger.error("cannot start the server: \(error)")
            return nil
        }
        service.attach(server)
        return Parts(
            registry: registry, service: service, server: server, watcher: watcher,
            socketPath: listeners.first?.path ?? configuration.socketPath)
    }

    /// The sockets systemd passed, else one bound at the configured path; `nil` (logged) when neither works.
    static func makeListeners(_ configuration: DaemonConfiguration, logger: Logger) -> [ListeningSocket]? {
        do {
            let activated = try ListeningSocket.activated()
            if !activated.isEmpty {
                if let path = activated.first?.path, !checkSocketDirectory(path, logger: logger) { return nil }
                logger.info("listening on \(activated.count) socket(s) passed by systemd")
                return activated
            }
            guard checkSocketDirectory(configuration.socketPath, logger: logger) else { return nil }
            let listener = try ListeningSocket.bind(path: configuration.socketPath, mode: configuration.socketMode)
            logger.info("listening on \(configuration.socketPath)")
            return [listener]
        } catch {
            logger.error(error.description)
            return nil
        }
    }

    /// Logs what ``SocketDirectory`` says of the socket's directory (issue 24).
    ///
    /// - Returns: `false` (logged as an error) when the daemon must not start there.
    static func checkSocketDirectory(_ socketPath: String, logger: Logger) -> Bool {
        switch SocketDirectory.check(socketPath: socketPath) {
        case .safe:
            return true
        case .warning(let message):
            logger.warning(message)
            return true
        case .refused(let message):
            logger.error("not starting: " + message)
            return false
        }
    }

    /// The services after persistence, in start order: notifier (`READY=1`), server, signal
    /// handling, watcher, snapshot publisher, fontconfig bridge.
    ///
    /// Everything that can fail is made here, before any starts; what the services start
    /// (threads, the snapshot's and the bridge's first writes) comes after `READY=1` (issue 29
    /// item 3: on a loaded machine each thread started before it waited for a core, and the
    /// snapshot's copy and `fsync` ran beside the start). Calls that arrive before the loops run
    /// wait in the listening socket's backlog; clients use the socket until the snapshot is
    /// published; a signal waits in the signalfd; a change in a watched folder in the inotify
    /// descriptor, whose watches were set before the scan.
    ///
    /// - Throws: ``SystemError`` when the signalfd cannot be opened.
    static func makeServices(
        _ parts: Parts, _ configuration: DaemonConfiguration, overrides: [(String, String)],
        terminate: DispatchSemaphore, logger: Logger
    ) throws -> [any DaemonService] {
        let notifier = SystemdNotifier()
        let current = SharedConfiguration(configuration)
        let server = parts.server
        let registry = parts.registry
        var services: [any DaemonService] = [
            NotifierService(
                notifier: notifier, logger: logger, status: { statusLine(registry) },
                isHealthy: { limit in server.slowestLoopAge < limit }),
            server,
        ]
        let signals: SignalWatcher
        do {
            signals = try SignalWatcher(logger: logger) { signal in
                switch signal {
                case .terminate:
                    terminate.signal()
                case .reload:
                    reload(current: current, overrides: overrides, parts: parts, notifier: notifier, logger: logger)
                }
            }
        } catch {
            logger.error("cannot receive signals: \(error)")
            throw error
        }
        services.append(signals)
        if let watcher = parts.watcher {
            services.append(
                DirectoryWatchService(
                    watcher: watcher, registry: parts.registry, service: parts.service,
                    queue: { server.queueChange(for: $0, paced: $1, $2) }, logger: logger))
        }
        let service = parts.service
        let publisher = SnapshotPublisher(
            registry: parts.registry, socketPath: parts.socketPath,
            source: {
                let source = service.snapshotSource()
                return (source.index, source.stamp)
            }, logger: logger)
        // Issue 28: the fontconfig bridge follows the same changes as the snapshot.
        let bridge = configuration.fontconfigConfig.map {
            FontconfigBridge(
                path: $0, service: service, cacheWorker: fontconfigCacheWorker(configuration), logger: logger)
        }
        service.stateChanged.withLock {
            $0 = { [weak publisher, weak bridge] in
                publisher?.schedule()
                bridge?.schedule()
            }
        }
        services.append(publisher)
        if let bridge { services.append(bridge) }
        return services
    }

    /// The persisted paths that still pass `Register`'s checks against the allowed roots.
    ///
    /// A state file is data, not configuration: one naming a path outside the allowed roots (an
    /// edited file, or roots narrowed since) is refused, logged and reported, never scanned. A
    /// path that is merely missing is kept (it may be a disk not mounted yet).
    static func revalidate(
        _ persisted: [String], allowedRoots: AllowedRoots, logger: Logger?, report: (ScanProblem) -> Void
    ) -> [String] {
        persisted.filter { path in
            do {
                _ = try allowedRoots.validate(path)
                return true
            } catch {
                if case PathRefusal.notFound = error { return true }
                logger?.error("persisted registration of \(path) refused: \(error)")
                report(
                    ScanProblem(
                        path: path,
                        reason:
                            "a persisted registration refused at start: \(error). It is dropped from the state file at "
                            + "the next change", kind: .other))
                return false
            }
        }
    }

    /// The registry for a configuration, with the persisted registrations as roots of their own.
    ///
    /// - Parameters:
    ///   - builder: builds a cold start's index in a child process when the cache directory is
    ///     writable; `nil`: scan in this process (the child itself).
    ///   - logger: where warnings go; `nil` in the child, whose daemon said them already.
    static func makeRegistry(
        _ configuration: DaemonConfiguration, persisted: [String], builder: IndexBuilder? = nil, logger: Logger?
    ) throws(RegistryError) -> FontRegistry {
        var directories: [String] = []
        var files: [String] = []
        for path in configuration.fontDirectories + persisted {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                logger?.warning(
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
        var writable = false
        do {
            try Syscall.makeDirectories(configuration.cacheDirectory)
            do {
                try Syscall.checkWritable(configuration.cacheDirectory)
                writable = true
            } catch {
                // Not fatal: start-up reads every font again, and GetStatus reports it as a problem.
                logger?.warning(
                    "cache directory \(configuration.cacheDirectory) is not writable "
                        + "(\(error)); make it writable to start faster")
            }
        } catch {
            logger?.warning(
                "cannot use cache directory \(configuration.cacheDirectory) (\(error)); using a temporary one")
            cacheDirectory = nil
        }
        var registryConfiguration = RegistryConfiguration(
            fontDirectories: directories, fontFiles: files, rulesDirectory: configuration.rulesDirectory,
            includeSystemFonts: configuration.includeSystemFonts, cacheDirectory: cacheDirectory)
        registryConfiguration.maximumFontFileSize = Int64(configuration.fontSizeLimitMiB) << 20
        registryConfiguration.parsing = parsing(configuration)
        // Persisted registrations came through Register: their links stay inside the allowed roots.
        let allowed = AllowedRoots(configuration.allowedRoots).resolvedRoots
        for path in persisted where !configuration.fontDirectories.contains(path) {
            registryConfiguration.confinement[path] = allowed
        }
        // A cold start's scan in a child process, whose heap goes with it (issue 29 item 2); only
        // into a cache directory the daemon can write, where the next warm start finds the file.
        var buildingElsewhere: ((String) -> Bool)?
        if let builder, writable { buildingElsewhere = { builder.build(reason: $0) } }
        return try FontRegistry(configuration: registryConfiguration, buildingElsewhere: buildingElsewhere)
    }

    /// Whether `directory` exists, or can be made, and this process may write it.
    static func cacheDirectoryIsWritable(_ directory: String) -> Bool {
        do {
            try Syscall.makeDirectories(directory)
            try Syscall.checkWritable(directory)
            return true
        } catch {
            return false
        }
    }

    static func statusLine(_ registry: FontRegistry) -> String {
        let index = registry.index
        return
            "Serving \(counted(index.faceCount, "face")) in \(counted(index.familyCount, "family", plural: "families")) (generation \(index.generation))"
    }

    private static func makeWatcher(_ configuration: DaemonConfiguration, persisted: [String], logger: Logger)
        -> FontDirectoryWatcher?
    {
        do {
            return try FontDirectoryWatcher(
                directories: configuration.fontDirectories + persisted,
                allowedRoots: AllowedRoots(configuration.allowedRoots).resolvedRoots,
                debounceMilliseconds: configuration.debounceMilliseconds, logger: logger)
        } catch {
            logger.warning("cannot watch font directories: \(error); changes need a Rescan")
            return nil
        }
    }

    /// SIGHUP: re-reads the config file and rules, applies what can change while running, rescans.
    static func reload(
        current: SharedConfiguration, overrides: [(String, String)], parts: Parts, notifier: SystemdNotifier,
        logger: Logger
    ) {
        let registry = parts.registry
        let service = parts.service
        let server = parts.server
        notifier.reloading()
        let old = current.value
        do {
            let new = try old.reloaded(overrides: overrides)
            service.update(
                .init(access: new.access, allowedRoots: AllowedRoots(new.allowedRoots), platform: new.platform))
            server.update(limits: new.serverLimits)
            let fixedAtStart: [(String, Bool)] = [
                ("socket", old.socketPath != new.socketPath || old.socketMode != new.socketMode),
                ("state-dir", old.stateDirectory != new.stateDirectory),
                ("cache-dir", old.cacheDirectory != new.cacheDirectory),
                ("font-size-limit", old.fontSizeLimitMiB != new.fontSizeLimitMiB),
                ("rules", old.rulesDirectory != new.rulesDirectory),
                ("system-fonts", old.includeSystemFonts != new.includeSystemFonts),
                ("threads", old.threads != new.threads),
                ("fontconfig-config", old.fontconfigConfig != new.fontconfigConfig),
                (
                    "parse-fonts",
                    old.parseSandboxed != new.parseSandboxed || old.parseWorkerUser != new.parseWorkerUser
                        || old.parseTimeoutSeconds != new.parseTimeoutSeconds
                ),
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
                    if new.watch, let watch = service.rootRegistered.withLock({ $0 }) {
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

import FontRegCore
import FontRegService
import FontRegSystem
import Foundation

/// A cold start's index, built in a child process (issue 29 item 2).
///
/// glibc keeps the pages of a scan's freed heap dirty around the blocks that stay live, so a
/// daemon that scanned its fonts itself keeps about 1 KiB per face it no longer needs. When the
/// index file cannot serve a warm start and the cache directory is usable, the daemon starts this
/// very executable (`/proc/self/exe`) with ``flag`` and its own arguments: the child reads the
/// same configuration and state file, builds the registry as the daemon would, which writes the
/// index file, classifies who may read each file (`readability.cache`), and exits. The daemon
/// then maps the file as a warm start does. Should the child fail, the daemon says why in one
/// line and scans the fonts itself.
///
/// The child dies with the daemon (`PR_SET_PDEATHSIG`), inherits no descriptor but its standard
/// input, output and error (its log lines reach the journal), and runs without `NOTIFY_SOCKET`,
/// `LISTEN_FDS`, `LISTEN_PID` and the watchdog's variables, so it can neither report readiness
/// nor take the daemon's sockets. It builds only into the cache directory the configuration
/// names, from the fonts the configuration and the state file name: nothing the daemon itself
/// would not do.
struct IndexBuilder: Sendable {
    /// The hidden argument that turns `fontregd` into a cold start's index builder.
    static let flag = "--build-index"

    /// What the child's environment leaves out: systemd's readiness, socket and watchdog variables.
    static let withheldVariables: Set<String> = [
        "NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID",
    ]

    /// The daemon's own arguments, which the child parses again into the same configuration.
    let daemonArguments: [String]
    /// The daemon's logger.
    let logger: Logger

    /// Starts the child and waits for it to end.
    ///
    /// - Parameter reason: why the index file cannot serve a warm start.
    /// - Returns: whether the child says it wrote the index file (exit status 0); else the reason
    ///   is logged, as one line, and the daemon scans the fonts itself.
    func build(reason: String) -> Bool {
        let started = Date()
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: "/proc/self/exe", name: CommandLine.arguments.first ?? "fontregd",
                arguments: [Self.flag] + daemonArguments,
                environment: ChildProcess.environment(removing: Self.withheldVariables))
        } catch {
            logger.warning("cannot start the index builder (\(error)); scanning the fonts in this process")
            return false
        }
        logger.info("cold start (\(reason)): building the index in a child process (pid \(child.pid))")
        let ending = child.wait(blocking: true)
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        switch ending {
        case .exited(0):
            logger.info("the index builder (pid \(child.pid)) wrote the index file in \(milliseconds) ms")
            return true
        case .exited(127):
            // What the spawn's child exits with when `execve` fails (no /proc mounted, say).
            logger.warning(
                "the index builder (pid \(child.pid)) could not be executed from /proc/self/exe (exit status 127); "
                    + "scanning the fonts in this process")
        case .exited(let status):
            logger.warning(
                "the index builder (pid \(child.pid)) failed with exit status \(status) after \(milliseconds) ms "
                    + "(its lines above say why); scanning the fonts in this process")
        case .signaled(let signal):
            logger.warning(
                "the index builder (pid \(child.pid)) was killed by signal \(signal) after \(milliseconds) ms; "
                    + "scanning the fonts in this process")
        case nil:
            logger.warning(
                "the index builder (pid \(child.pid)) could not be waited for; scanning the fonts in this process")
        }
        return false
    }

    /// The child's `main`: builds the registry of the configuration `arguments` name into its
    /// cache directory, then the file readability classification beside it.
    ///
    /// - Parameter arguments: the daemon's arguments (after ``flag``).
    /// - Returns: 0 when the index file was written and maps, 1 when it was not, 64 for arguments
    ///   that are not a daemon's.
    static func main(arguments: [String]) -> Int32 {
        // As in the daemon during its own scan: a stop (SIGTERM to the whole unit) waits for the
        // build rather than killing it, so the daemon is not left to scan again before it stops.
        SignalWatcher.blockDaemonSignals()
        let configuration: DaemonConfiguration
        do {
            guard case .run(let parsed, _) = try DaemonConfiguration.parse(arguments: arguments) else {
                Logger().error("\(flag) takes the daemon's arguments, which run it")
                return FontRegDaemon.ExitCode.usage
            }
            configuration = parsed
        } catch {
            Logger().error(error.description)
            return FontRegDaemon.ExitCode.usage
        }
        var logger = Logger(minimumLevel: configuration.verbose ? .debug : .info, program: "fontregd (index builder)")
        logger.journalPrefixes = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        guard FontRegDaemon.cacheDirectoryIsWritable(configuration.cacheDirectory) else {
            logger.error("cannot write the cache directory \(configuration.cacheDirectory)")
            return FontRegDaemon.ExitCode.failure
        }
        // The daemon has loaded the state file already (and moved a corrupt one aside): read, not changed.
        let store = RegistrationStore(directory: configuration.stateDirectory)
        let allowedRoots = AllowedRoots(configuration.allowedRoots)
        let persisted = FontRegDaemon.revalidate((try? store.load()) ?? [], allowedRoots: allowedRoots, logger: nil) {
            _ in
        }
        let registry: FontRegistry
        do {
            registry = try FontRegDaemon.makeRegistry(configuration, persisted: persisted, logger: nil)
        } catch {
            logger.error("cannot build the font index: \(error)")
            return FontRegDaemon.ExitCode.failure
        }
        guard registry.index.isMapped else {
            let problem = registry.index.problems.last.map { ": \($0.reason)" } ?? ""
            logger.error("the index file was not written to \(configuration.cacheDirectory)\(problem)")
            return FontRegDaemon.ExitCode.failure
        }
        // Who may read each file, kept beside the index (`readability.cache`) for the daemon's start.
        let service = RegistryService(
            registry: registry, store: store, persisted: persisted,
            settings: .init(
                access: configuration.access, allowedRoots: allowedRoots, platform: configuration.platform),
            logger: logger)
        service.warmViews(coverage: false)
        logger.info(
            "\(registry.startMode): indexed \(counted(registry.index.faceCount, "face")) into "
                + "\(configuration.cacheDirectory)/\(FontRegistry.indexFileName)")
        return FontRegDaemon.ExitCode.success
    }
}

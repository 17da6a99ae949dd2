import FontRegCore
import FontRegSystem
import Foundation

extension FontRegDaemon {
    /// The hidden argument that turns `fontregd` into a sandboxed font parser (issue 15).
    static let parseWorkerFlag = "--parse-worker"

    /// The hidden argument that turns `fontregd` into fontconfig's confined cache builder (issue 28).
    static let fontconfigCacheWorkerFlag = "--fontconfig-cache-worker"

    /// How the fontconfig bridge starts its cache worker: this executable, as the parse workers'
    /// user (`FONTREG_TEST_PARSER_FAULTS=1` lets the tests make it crash, by file name).
    static func fontconfigCacheWorker(_ configuration: DaemonConfiguration)
        -> (executable: String, arguments: [String], user: String)
    {
        var arguments = [fontconfigCacheWorkerFlag]
        if ProcessInfo.processInfo.environment["FONTREG_TEST_PARSER_FAULTS"] == "1" {
            arguments.append("--test-faults")
        }
        return ("/proc/self/exe", arguments, configuration.parseWorkerUser)
    }

    /// Says at start what the kernel lets the workers' Landlock rules enforce (a warning when the
    /// confinement is partial: an older kernel, or a seccomp filter around the daemon that refuses
    /// the Landlock calls).
    static func logWorkerConfinement(_ configuration: DaemonConfiguration, logger: Logger) {
        guard configuration.parseSandboxed || configuration.fontconfigConfig != nil else { return }
        let confinement = Landlock.Confinement(abi: Landlock.abi)
        let line = "workers' file-system confinement: \(confinement)"
        if confinement.isComplete { logger.info(line) } else { logger.warning(line) }
    }

    /// Where the daemon parses fonts: in workers started from its own binary, or in process.
    ///
    /// The workers are this very executable (`/proc/self/exe`, so an upgrade in place never mixes
    /// versions). `FONTREG_TEST_PARSER_FAULTS=1` in the daemon's environment lets the tests make
    /// a worker crash, hang or call what the sandbox forbids, by file name.
    static func parsing(_ configuration: DaemonConfiguration) -> FaceParsing {
        guard configuration.parseSandboxed else { return .inProcess }
        var arguments = [parseWorkerFlag]
        if ProcessInfo.processInfo.environment["FONTREG_TEST_PARSER_FAULTS"] == "1" {
            arguments.append("--test-faults")
        }
        return .sandboxed(
            SandboxedParsing(
                executable: "/proc/self/exe", arguments: arguments, workers: 2,
                timeoutSeconds: configuration.parseTimeoutSeconds, user: configuration.parseWorkerUser))
    }
}

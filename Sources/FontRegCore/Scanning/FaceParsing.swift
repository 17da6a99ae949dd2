/// Where a registry's scanner parses font files: in its own process, or in sandboxed workers.
///
/// An embedding program that reads only its own fonts can parse in process (the default). The
/// daemon, which runs as root and reads fonts its users hand it, parses in workers: separate
/// processes with no privileges, no file system and a memory and time limit, so a malformed font
/// costs only that file (see ``SandboxedParsing``).
public enum FaceParsing: Sendable, Hashable {
    /// FreeType runs in this process.
    case inProcess
    /// FreeType runs in worker processes confined by seccomp, handed each file as a descriptor.
    case sandboxed(SandboxedParsing)
}

/// How sandboxed font-parsing workers are started and limited.
public struct SandboxedParsing: Sendable, Hashable {
    /// The program started as a worker (`fontregd`; `/proc/self/exe` inside the daemon).
    public var executable: String
    /// Its arguments, which select the worker mode (`--parse-worker`).
    public var arguments: [String]
    /// How many workers parse at once.
    public var workers: Int
    /// The CPU time one file may take before its worker is killed (seconds).
    ///
    /// Counted on the worker's process CPU clock, so that a busy machine, which slows every
    /// process alike, never turns a good file into a timeout.
    public var timeoutSeconds: Double
    /// The wall-clock time a worker holding files may go without answering before it is killed
    /// (seconds): the backstop for a parser stuck in a call that uses no CPU time.
    public var stallSeconds: Double
    /// The worker's address-space limit (`RLIMIT_AS`), in MiB.
    public var memoryLimitMiB: Int
    /// The user the worker becomes when started as root (`nobody` by default).
    public var user: String
    /// How many files travel to a worker in one message.
    public var batchSize: Int

    /// Creates worker settings.
    ///
    /// - Parameters:
    ///   - executable: the program to start; it must run `FontParseWorker` for `arguments`.
    ///   - arguments: the arguments selecting the worker mode, `["--parse-worker"]` for `fontregd`.
    ///   - workers: how many workers run at once (2 by default).
    ///   - timeoutSeconds: how much CPU time one file may take (5 s by default).
    ///   - stallSeconds: how long a busy worker may go without answering in wall-clock time
    ///     (twelve times the timeout and at least 30 s by default).
    ///   - memoryLimitMiB: the address-space limit of a worker (1024 MiB by default).
    ///   - user: the unprivileged user a worker started as root becomes (`nobody` by default).
    public init(
        executable: String, arguments: [String] = ["--parse-worker"], workers: Int = 2,
        timeoutSeconds: Double = 5, stallSeconds: Double? = nil, memoryLimitMiB: Int = 1024,
        user: String = "nobody"
    ) {
        self.executable = executable
        self.arguments = arguments
        self.workers = max(1, min(16, workers))
        self.timeoutSeconds = timeoutSeconds
        self.stallSeconds = stallSeconds ?? max(30, timeoutSeconds * 12)
        self.memoryLimitMiB = memoryLimitMiB
        self.user = user
        self.batchSize = 16
    }

    /// The full argument list of a worker, its limits included.
    ///
    /// `RLIMIT_CPU` counts a process's whole life, not one file: it is the backstop should the
    /// daemon's per-file wall-clock timer fail, sized for a worker that lives one scan (300 s, or
    /// more with a long timeout), so that a large cold scan never meets it.
    var workerArguments: [String] {
        let cpu = max(300, Int(timeoutSeconds.rounded(.up)) * 4)
        return arguments + ["--user", user, "--memory-mib", String(memoryLimitMiB), "--cpu-seconds", String(cpu)]
    }
}

internal import CSeccomp
internal import CShim
import Glibc

/// Confines the calling process to parsing what it is handed: the font parser's sandbox.
///
/// In order: resource limits (address space, CPU time, no files written, no core dumps, few
/// descriptors), then the unprivileged user (supplementary groups cleared, group, user — only
/// when started as root), then `PR_SET_NO_NEW_PRIVS`, then a Landlock ruleset (``Landlock``:
/// the files the worker may reach, whatever its uid; for the parser none), then a seccomp filter that lets through
/// only what parsing a descriptor-passed font needs — reading and writing the daemon's socket,
/// mapping memory, closing, exiting — and kills the process on any other call (`open`, `openat`,
/// `socket`, `execve`, `stat`, …). Nothing can be undone afterwards.
package enum WorkerSandbox {
    /// What the sandbox allows and limits.
    package struct Limits: Sendable, Equatable {
        /// The address-space limit in bytes (`RLIMIT_AS`).
        package var addressSpaceBytes: UInt64
        /// The CPU-time limit in seconds (`RLIMIT_CPU`); the daemon's wall-clock timeout is shorter.
        package var cpuSeconds: UInt64
        /// The user and group to become when started as root; `nil` keeps the current ones.
        package var user: (uid: UInt32, gid: UInt32)?

        /// Creates limits.
        package init(addressSpaceBytes: UInt64, cpuSeconds: UInt64, user: (uid: UInt32, gid: UInt32)?) {
            self.addressSpaceBytes = addressSpaceBytes
            self.cpuSeconds = cpuSeconds
            self.user = user
        }

        package static func == (a: Limits, b: Limits) -> Bool {
            a.addressSpaceBytes == b.addressSpaceBytes && a.cpuSeconds == b.cpuSeconds
                && a.user?.uid == b.user?.uid && a.user?.gid == b.user?.gid
        }
    }

    /// The user and group ids of a user in the user database (`getpwnam`), or `nil` when unknown.
    package static func user(named name: String) -> (uid: UInt32, gid: UInt32)? {
        guard let entry = getpwnam(name) else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// What the confined process is for, which sets what its filter lets through.
    package enum Profile: Sendable, Equatable {
        /// The font parser: only the daemon's socket can be read and written; no file is opened
        /// (fonts arrive as descriptors) and none can be written.
        case parser
        /// fontconfig's cache builder (issue 28, `fontregd --fontconfig-cache-worker`): fontconfig
        /// opens fonts and writes its cache by path, so the filter lets through the file-system
        /// calls it makes (open, stat, list, read, write, rename, link, unlink, mkdir) and nothing
        /// else: no socket, no `execve`, no `ptrace`, no signal to another process. What it can
        /// reach is what its Landlock rules (``Paths``) and its user both allow; files it writes
        /// are capped at `fileSizeBytes`.
        case fontconfigCache(fileSizeBytes: UInt64)
    }

    /// The files a worker may reach by path once confined (its Landlock rules).
    package struct Paths: Sendable, Equatable {
        /// Read (files and directory listings) beneath these.
        package var reading: [String]
        /// Read and written beneath these.
        package var writing: [String]

        /// Rules for these paths.
        package init(reading: [String], writing: [String]) {
            self.reading = reading
            self.writing = writing
        }

        /// No file at all: the parser, which has only the descriptors it is handed.
        package static let none = Paths(reading: [], writing: [])
    }

    /// Enters the sandbox; from here on, as the parser, only `socket` can be read and written.
    ///
    /// - Parameters:
    ///   - socket: the descriptor of the daemon's socket (requests in, replies out).
    ///   - limits: the resource limits and the user.
    ///   - profile: what the filter lets through (the parser's unless told).
    ///   - paths: the files it may still open by path (none unless told).
    /// - Returns: what Landlock enforces on this kernel (partial or nothing on an older one; the
    ///   caller logs it).
    /// - Throws: ``SystemError`` when a step fails: the caller must exit rather than parse unconfined.
    @discardableResult
    package static func enter(
        socket: Int32, limits: Limits, profile: Profile = .parser, paths: Paths = .none
    ) throws(SystemError) -> Landlock.Confinement {
        var fileSize: UInt64 = 0
        if case .fontconfigCache(let bytes) = profile { fileSize = bytes }
        try Syscall.run("setrlimit", subject: "RLIMIT_AS") { cshim_set_limit(0, limits.addressSpaceBytes) }
        try Syscall.run("setrlimit", subject: "RLIMIT_CPU") { cshim_set_limit(1, limits.cpuSeconds) }
        try Syscall.run("setrlimit", subject: "RLIMIT_NOFILE") { cshim_set_limit(2, 64) }
        try Syscall.run("setrlimit", subject: "RLIMIT_FSIZE") { cshim_set_limit(3, fileSize) }
        try Syscall.run("setrlimit", subject: "RLIMIT_CORE") { cshim_set_limit(4, 0) }
        if let user = limits.user, geteuid() == 0 {
            try Syscall.run("setuid", subject: "\(user.uid)") { cshim_drop_to(user.uid, user.gid) }
        }
        try Syscall.run("prctl", subject: "PR_SET_NO_NEW_PRIVS") { cshim_no_new_privileges() }
        // Before the seccomp filter, which does not let the Landlock calls through.
        let confinement = try Landlock.restrict(reading: paths.reading, writing: paths.writing)
        // The Swift runtime's crash handler would try to start a backtracer (forbidden here) and
        // hide the real signal: a crash must end the worker with its own signal for the daemon to report.
        for signal in [SIGSEGV, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { _ = Glibc.signal(signal, SIG_DFL) }
        try loadFilter(socket: socket, profile: profile)
        return confinement
    }

    /// Calls allowed whatever their arguments: memory, signals the runtime handles, time, exit.
    static let allowedCalls = [
        "mmap", "munmap", "mremap", "mprotect", "brk", "madvise", "close", "futex", "sched_yield",
        "getrandom", "clock_gettime", "gettimeofday", "getpid", "gettid", "rt_sigreturn", "rt_sigprocmask",
        "rt_sigaction", "sigaltstack", "restart_syscall", "exit", "exit_group",
        // glibc's qsort asks how much memory there is before sorting a large array (FreeType's CFF
        // parser sorts); found by the font fuzzer, whose mutant killed the worker without it.
        "sysinfo",
    ]
    /// Calls allowed only on the daemon's socket.
    static let socketReads = ["read", "recvmsg", "recvfrom"]
    /// Calls allowed on the daemon's socket and on standard error (where a runtime crash is explained).
    static let socketWrites = ["write", "writev", "sendmsg", "sendto"]

    /// The file-system calls fontconfig makes while it scans a directory and writes its cache
    /// (found with `strace -f -c fc-cache -f`), allowed on any descriptor in the cache profile.
    static let fontconfigCalls = [
        "open", "openat", "read", "pread64", "write", "writev", "lseek", "fstat", "newfstatat", "stat", "lstat",
        "statx", "fstatfs", "statfs", "fcntl", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
        "getdents64", "rename", "renameat", "renameat2", "link", "linkat", "unlink", "unlinkat", "mkdir", "mkdirat",
        "rmdir", "fadvise64", "fsync", "fdatasync", "ftruncate", "fchmod", "umask", "getuid", "geteuid", "getgid",
        "getegid", "uname",
    ]

    /// Builds and loads the filter: everything not listed kills the process (`SCMP_ACT_KILL_PROCESS`).
    private static func loadFilter(socket: Int32, profile: Profile) throws(SystemError) {
        guard let filter = seccomp_init(0x8000_0000) else { throw SystemError("seccomp_init", errno: ENOMEM) }
        defer { seccomp_release(filter) }
        let allow: UInt32 = 0x7fff_0000
        func number(_ name: String) throws(SystemError) -> Int32 {
            let value = seccomp_syscall_resolve_name(name)
            if value < 0 { throw SystemError("seccomp_syscall_resolve_name", subject: name, errno: EINVAL) }
            return value
        }
        func add(_ name: String, firstArgument: Int32? = nil) throws(SystemError) {
            let call = try number(name)
            var result: Int32
            if let firstArgument {
                var comparison = scmp_arg_cmp(arg: 0, op: SCMP_CMP_EQ, datum_a: UInt64(firstArgument), datum_b: 0)
                result = seccomp_rule_add_array(filter, allow, call, 1, &comparison)
            } else {
                result = seccomp_rule_add_array(filter, allow, call, 0, nil)
            }
            if result < 0 { throw SystemError("seccomp_rule_add", subject: name, errno: -result) }
        }
        for name in allowedCalls { try add(name) }
        switch profile {
        case .parser:
            for name in socketReads { try add(name, firstArgument: socket) }
            for name in socketWrites {
                try add(name, firstArgument: socket)
                try add(name, firstArgument: STDERR_FILENO)
            }
        case .fontconfigCache:
            // Some of the older calls (`open`, `stat`, …) exist on x86-64 only: skip what this architecture lacks.
            for name in fontconfigCalls where seccomp_syscall_resolve_name(name) >= 0 { try add(name) }
            for name in ["recvmsg", "recvfrom"] { try add(name, firstArgument: socket) }
            for name in ["sendmsg", "sendto"] { try add(name, firstArgument: socket) }
        }
        // abort() signals its own thread: allowed towards this process only.
        let call = try number("tgkill")
        var own = scmp_arg_cmp(arg: 0, op: SCMP_CMP_EQ, datum_a: UInt64(getpid()), datum_b: 0)
        let added = seccomp_rule_add_array(filter, allow, call, 1, &own)
        if added < 0 { throw SystemError("seccomp_rule_add", subject: "tgkill", errno: -added) }
        let loaded = seccomp_load(filter)
        if loaded < 0 { throw SystemError("seccomp_load", errno: -loaded) }
    }
}

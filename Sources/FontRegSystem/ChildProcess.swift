internal import CShim
import Glibc

/// A child process started with one descriptor handed to it as its descriptor 3.
///
/// Started by `fork` and `execv` from C (only async-signal-safe calls between them), with an
/// empty signal mask, default signal dispositions and `SIGKILL` as its parent-death signal, so
/// a worker never outlives the daemon. Killed and reaped when released.
package final class ChildProcess {
    /// How a child ended.
    package enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    /// The child's process id.
    package let pid: Int32
    private var ending: Ending?

    /// Starts `executable` with `arguments` (not including the program name) and `descriptor` as its descriptor 3.
    ///
    /// - Throws: ``SystemError`` from `fork` (the `execv` failing shows as exit status 127).
    package init(executable: String, arguments: [String], descriptor: Int32) throws(SystemError) {
        let argv = Self.cStrings([executable] + arguments)
        defer { Self.free(argv) }
        pid = try Syscall.run("fork", subject: executable) {
            argv.withUnsafeBufferPointer { cshim_spawn_with_fd(executable, $0.baseAddress, descriptor) }
        }
    }

    /// Starts `executable` with `arguments` (not including the program name) and `environment`
    /// as its whole environment, handing it no descriptor but its standard input, output and error.
    ///
    /// Every other descriptor is closed in the child before `execve` (`close_range`), whether
    /// close-on-exec or not.
    ///
    /// - Parameters:
    ///   - executable: the path `execve` is given.
    ///   - name: the child's `argv[0]`, which its log lines and `ps` show (`/proc/self/exe`
    ///     would show as `exe`); by default `executable`.
    ///   - arguments: the arguments after the name.
    ///   - environment: the child's environment, `NAME=value` each.
    /// - Throws: ``SystemError`` from `fork` (the `execve` failing shows as exit status 127).
    package init(executable: String, name: String? = nil, arguments: [String], environment: [String])
        throws(SystemError)
    {
        let argv = Self.cStrings([name ?? executable] + arguments)
        let envp = Self.cStrings(environment)
        defer {
            Self.free(argv)
            Self.free(envp)
        }
        pid = try Syscall.run("fork", subject: executable) {
            argv.withUnsafeBufferPointer { argv in
                envp.withUnsafeBufferPointer { cshim_spawn(executable, argv.baseAddress, $0.baseAddress, -1) }
            }
        }
    }

    /// The current process's environment without the variables named in `removing`.
    ///
    /// - Parameter removing: the names of the variables left out.
    /// - Returns: the others, `NAME=value` each, in their order.
    package static func environment(removing: Set<String>) -> [String] {
        var kept: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let variable = String(cString: pointer)
            let name = variable.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first
            if let name, !removing.contains(String(name)) { kept.append(variable) }
            entry += 1
        }
        return kept
    }

    /// `strings` as C strings, followed by a null pointer, as `execve` takes them.
    private static func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
        strings.map { strdup($0) } + [nil]
    }

    /// Frees what ``cStrings(_:)`` allocated.
    private static func free(_ pointers: [UnsafeMutablePointer<CChar>?]) {
        for pointer in pointers { Glibc.free(pointer) }
    }

    deinit {
        if ending == nil {
            kill()
            _ = wait(blocking: true)
        }
    }

    /// Sends `SIGKILL` (nothing when it has already been reaped).
    package func kill() {
        if ending == nil { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// The CPU time, user and system, the child has used so far (microseconds), read from its
    /// process CPU clock; `nil` once it has been reaped or when the clock cannot be read.
    ///
    /// A parser's budget per file is counted in this time, not in wall-clock time, so that a
    /// busy machine, which slows every process, never makes a good file look like a hang.
    package var cpuMicroseconds: UInt64? {
        guard ending == nil else { return nil }
        let spent = cshim_process_cpu_microseconds(pid)
        return spent < 0 ? nil : UInt64(spent)
    }

    /// Blocks the calling thread for ever without using CPU time: the parse worker's test fault
    /// for a parser stuck in a blocking call (only `futex`, which its sandbox allows).
    package static func blockForever() -> Never {
        cshim_block_forever()
    }

    /// Ends this process at once with a segmentation fault, as a crashing parser would (the
    /// tests' fault injection).
    ///
    /// The corresponding call is `raise(SIGSEGV)`.
    package static func crashForTesting() {
        _ = raise(SIGSEGV)
    }

    /// Ends this process at once with `status`, running no exit handler (the tests' fault injection).
    ///
    /// The corresponding call is `_exit`.
    package static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }

    /// Gives up the processor to another thread (`sched_yield`).
    package static func yieldProcessor() {
        _ = sched_yield()
    }

    /// Tries to open `/etc/passwd`, a call a sandboxed worker's seccomp filter must refuse by
    /// killing it (the tests' fault injection).
    package static func attemptForbiddenOpen() {
        _ = open("/etc/passwd", O_RDONLY)
    }

    /// What a hostile font's code might try on a file by path (the tests' fault injection).
    package enum AttemptedAccess: String, Sendable, CaseIterable {
        /// `open(O_RDONLY)`.
        case read
        /// `open(O_WRONLY | O_APPEND)`: nothing is lost if it succeeds.
        case write
        /// `open(O_WRONLY | O_CREAT | O_EXCL)`.
        case create
        /// `unlink`.
        case remove
    }

    /// Tries `access` on `path`, as a worker taken over by a hostile font would, to show that its
    /// sandbox refuses it (the tests' fault injection of the fontconfig cache worker).
    ///
    /// - Returns: 0 when the kernel allowed it, else the error number (`EACCES` from Landlock).
    package static func attempt(_ access: AttemptedAccess, on path: String) -> Int32 {
        let result: Int32
        switch access {
        case .read: result = open(path, O_RDONLY | O_CLOEXEC)
        case .write: result = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        case .create: result = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        case .remove: return unlink(path) == 0 ? 0 : Glibc.errno
        }
        guard result >= 0 else { return Glibc.errno }
        Syscall.close(result)
        return 0
    }

    /// Tries to create a network socket, a call the fontconfig cache worker's seccomp filter
    /// must refuse by killing it (the tests' fault injection; its filter allows `open`).
    ///
    /// The corresponding call is `socket(AF_INET, SOCK_STREAM, 0)`.
    package static func attemptForbiddenSocket() {
        _ = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    }

    /// Reaps the child when it has ended.
    ///
    /// - Parameter blocking: whether to wait for it to end.
    /// - Returns: how it ended, or `nil` while it still runs.
    package func wait(blocking: Bool) -> Ending? {
        if let ending { return ending }
        var exited: Int32 = 0, code: Int32 = 0, signal: Int32 = 0
        guard cshim_wait_child(pid, blocking ? 1 : 0, &exited, &code, &signal) == 1 else { return nil }
        ending = exited != 0 ? .exited(code) : .signaled(signal)
        return ending
    }
}

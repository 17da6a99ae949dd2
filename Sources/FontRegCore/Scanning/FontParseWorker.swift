import FontRegSystem
import Foundation

/// The sandboxed font parser: the worker mode of `fontregd` (`fontregd --parse-worker`).
///
/// Started by ``ParserPool`` with a `SOCK_SEQPACKET` socket as descriptor 3, it sets up FreeType,
/// enters its sandbox (``WorkerSandbox``: resource limits, the unprivileged user, no new
/// privileges, a Landlock ruleset that handles every file access and allows none, a seccomp
/// filter that kills it on any call but reading and writing that socket, memory and exit) and then answers requests until the socket closes: each request carries
/// font files as descriptors, each answer one file's faces (``ParseReply``).
package enum FontParseWorker {
    /// The descriptor of the daemon's socket in a worker.
    static let socket: Int32 = 3
    /// The largest request a worker accepts (a batch of paths).
    static let requestCapacity = 256 << 10
    /// The largest reply a worker sends; a file whose faces do not fit is reported instead.
    static let replyCapacity = 192 << 10

    /// Exit statuses of a worker that could not start, from the sysexits convention.
    enum Status {
        static let usage: Int32 = 64
        static let data: Int32 = 65
        static let noUser: Int32 = 67
        static let osError: Int32 = 71
    }

    /// The worker's settings, from its command line.
    struct Options: WorkerOptions {
        var user = "nobody"
        var memoryMiB: UInt64 = 1024
        var cpuSeconds: UInt64 = 10
        /// Test-only faults by file name (`parser-crash`, `parser-hang`, `parser-syscall`); off unless asked.
        var testFaults = false
    }

    /// Runs the worker until its socket closes.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after `--parse-worker`.
    ///   - program: what starts each line the worker writes to standard error (the daemon's log),
    ///     naming the executable that runs it: the program that embeds the parser passes its own name.
    /// - Returns: the exit status (0 when the daemon closed the socket).
    package static func main(arguments: [String], program: String) -> Int32 {
        func log(_ line: String) { FileHandle.standardError.write(Data("\(program): \(line)\n".utf8)) }
        guard let options = parse(arguments) else {
            log("bad arguments \(arguments)")
            return Status.usage
        }
        let reader = FontFileReader(library: FreeTypeLibrary())
        let user = WorkerSandbox.user(named: options.user)
        if user == nil && Syscall.effectiveUserID == 0 {
            log("no user \(options.user); create it or set parse-worker-user")
            return Status.noUser
        }
        do {
            // No path at all: the fonts arrive as descriptors.
            let confinement = try WorkerSandbox.enter(
                socket: socket,
                limits: WorkerSandbox.Limits(
                    addressSpaceBytes: options.memoryMiB << 20, cpuSeconds: options.cpuSeconds, user: user),
                paths: .none)
            if !confinement.isComplete { log("file-system confinement: \(confinement)") }
        } catch {
            log("cannot enter the sandbox: \(error)")
            return Status.osError
        }
        return serve(reader: reader, testFaults: options.testFaults)
    }

    /// Answers requests until the socket closes; runs inside the sandbox.
    private static func serve(reader: FontFileReader, testFaults: Bool) -> Int32 {
        while true {
            guard
                let message = try? PacketSocket.receive(
                    socket, capacity: requestCapacity, maximumDescriptors: PacketSocket.maximumDescriptors)
            else { return Status.osError }
            if message.bytes.isEmpty { return 0 }
            guard !message.truncated, let items = ParseRequest.decode(message.bytes),
                items.count == message.descriptors.count
            else { return Status.data }
            for (item, descriptor) in zip(items, message.descriptors) {
                if testFaults { injectFault(path: item.path) }
                var bytes = parse(item, descriptor: descriptor, reader: reader).encode(id: item.id, path: item.path)
                if bytes.count > replyCapacity {
                    bytes = ParseReply.problem(
                        "too many faces to report (\(bytes.count) bytes of face records); not indexed", kind: .tooLarge
                    ).encode(id: item.id, path: item.path)
                }
                do { try PacketSocket.send(socket, bytes) } catch { return Status.osError }
            }
        }
    }

    /// Maps one passed descriptor and reads its faces.
    private static func parse(_ item: ParseRequestItem, descriptor: FileDescriptor, reader: FontFileReader)
        -> ParseReply
    {
        guard item.size > 0, item.size <= Int64(Int32.max) else {
            return .problem("empty or oversized file", kind: item.size > 0 ? .tooLarge : .notAFont)
        }
        do {
            let bytes = FontBytes(try descriptor.map(count: Int(item.size)))
            return reader.reply(path: item.path, bytes: bytes)
        } catch {
            return .problem(FontScanner.describe(errno: error.errno), kind: FontScanner.kind(errno: error.errno))
        }
    }

    /// Misbehaves on purpose for a file whose name asks for it, when the daemon runs the tests' faults.
    ///
    /// The tests of the sandbox and of the pool need a parser that crashes (`parser-crash`),
    /// loops on the CPU (`parser-hang`), blocks using no CPU time (`parser-sleep`), exits on its own
    /// (`parser-exit`), is slow (`parser-slow`, 20 ms of wall-clock time) or makes a forbidden call
    /// (`parser-syscall`); the worker acts on them only when started with `--test-faults`.
    private static func injectFault(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.contains("parser-crash") { ChildProcess.crashForTesting() }
        if name.contains("parser-hang") {
            // A parser caught in a loop: pure CPU, no system call (yielding would hardly count).
            var turns: UInt64 = 1
            while turns != 0 { turns = turns &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 | 1 }
        }
        if name.contains("parser-sleep") { ChildProcess.blockForever() }
        if name.contains("parser-exit") { ChildProcess.exitImmediately(0) }
        if name.contains("parser-slow") {
            let until = MonotonicClock.microseconds + 20_000
            while MonotonicClock.microseconds < until { ChildProcess.yieldProcessor() }
        }
        if name.contains("parser-syscall") { ChildProcess.attemptForbiddenOpen() }
    }

    /// Reads the worker's options (``WorkerArguments``), or `nil` when they are not understood.
    static func parse(_ arguments: [String]) -> Options? {
        WorkerArguments<Options>()
            .parse(arguments, defaults: Options())
    }
}

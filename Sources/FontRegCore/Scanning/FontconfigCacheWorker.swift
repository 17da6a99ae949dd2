internal import CFontconfig
import FontRegSystem
import Foundation

/// fontconfig's cache builder for the fontconfig bridge: the worker mode
/// `fontregd --fontconfig-cache-worker` (issue 28).
///
/// fontconfig reads a font directory's cache from every `<cachedir>` it is given and writes a
/// fresh one into the first it may write. The bridge names the daemon's own cache directory,
/// which only the daemon (root) may write; this worker is what fills it, confined as the font
/// parser is: it is started with a `SOCK_SEQPACKET` socket as descriptor 3, receives one request
/// (its build directory, a private directory the daemon gave to the worker's user; the daemon's
/// cache directory; the directories to cache), sets up a private fontconfig configuration whose
/// cache directories are the build directory first and the daemon's second, enters its sandbox
/// (``WorkerSandbox``, profile ``WorkerSandbox/Profile/fontconfigCache(fileSizeBytes:)``:
/// resource limits, the unprivileged user, no new privileges, a seccomp filter allowing
/// fontconfig's file-system calls and nothing else) and then asks fontconfig for each directory's
/// cache (`FcDirCacheRead`), subdirectories included. fontconfig itself decides whether a cache
/// is current and names the file; a cache that is current in the daemon's directory is left
/// alone, a stale or missing one is written into the build directory, from which the daemon
/// copies it after checking it (``FontconfigCacheReply``). The worker can write nowhere else
/// and read only the fonts and caches it is asked about: its Landlock rules say so whatever its
/// uid (``paths(for:)``; under `DynamicUser=` it keeps the daemon's own).
package enum FontconfigCacheWorker {
    /// The descriptor of the daemon's socket in a worker.
    static let socket: Int32 = 3
    /// The largest request the worker accepts.
    package static let requestCapacity = 1 << 20
    /// The largest reply message.
    package static let replyCapacity = 64 << 10
    /// The largest cache file the worker may write (`RLIMIT_FSIZE`).
    package static let cacheFileLimit: UInt64 = 256 << 20

    /// The worker's settings, from its command line.
    struct Options: WorkerOptions {
        var user = "nobody"
        var memoryMiB: UInt64 = 2048
        var cpuSeconds: UInt64 = 120
        /// A directory with more entries than this is not cached (fontconfig scans it in each application).
        var maximumEntries = 20_000
        /// At most this many directories, subdirectories included, are cached per request.
        var maximumDirectories = 4_096
        /// Test-only: crash on reaching a file whose name contains `parser-crash`, call `socket` on `parser-syscall`.
        var testFaults = false
    }

    /// Runs the worker: one request, its replies, exit.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after `--fontconfig-cache-worker`.
    ///   - program: what starts each line the worker writes to standard error (the daemon's log).
    /// - Returns: the exit status (0 when every reply was sent).
    package static func main(arguments: [String], program: String) -> Int32 {
        func log(_ line: String) { FileHandle.standardError.write(Data("\(program): \(line)\n".utf8)) }
        guard let options = parse(arguments) else {
            log("bad arguments \(arguments)")
            return 64
        }
        let user = WorkerSandbox.user(named: options.user)
        if user == nil && Syscall.effectiveUserID == 0 {
            log("no user \(options.user); create it or set parse-worker-user")
            return 67
        }
        guard let message = try? PacketSocket.receive(socket, capacity: requestCapacity), !message.truncated,
            let request = FontconfigCacheRequest.decode(message.bytes)
        else {
            log("bad request")
            return 65
        }
        guard let config = FcConfigCreate() else { return 71 }
        defer { FcConfigDestroy(config) }
        let xml = """
            <?xml version="1.0"?>
            <fontconfig><cachedir>\(escaped(request.buildDirectory))</cachedir>\
            <cachedir>\(escaped(request.cacheDirectory))</cachedir></fontconfig>
            """
        guard FcConfigParseAndLoadFromMemory(config, xml, 1) != 0 else {
            log("fontconfig refused the cache directories \(request.buildDirectory), \(request.cacheDirectory)")
            return 65
        }
        do {
            let confinement = try WorkerSandbox.enter(
                socket: socket,
                limits: WorkerSandbox.Limits(
                    addressSpaceBytes: options.memoryMiB << 20, cpuSeconds: options.cpuSeconds, user: user),
                profile: .fontconfigCache(fileSizeBytes: cacheFileLimit), paths: paths(for: request))
            if !confinement.isComplete { log("file-system confinement: \(confinement)") }
        } catch {
            log("cannot enter the sandbox: \(error)")
            return 71
        }
        return serve(request, config: config, options: options)
    }

    /// What the worker may reach once confined (its Landlock rules): fontconfig reads the fonts
    /// beneath the requested directories (and the targets of the symbolic links in them and in
    /// their subdirectories, which is what the bridge's `files/` holds) and the caches in the
    /// daemon's cache directory, and writes beneath the build directory; nothing else, not even
    /// fontconfig's own configuration (the worker's is made in memory before). The walk that
    /// finds the links follows none and stops after `maximumEntries` entries in all.
    static func paths(for request: FontconfigCacheRequest, maximumEntries: Int = 200_000) -> WorkerSandbox.Paths {
        var reading = [request.cacheDirectory]
        var walked = 0
        var queue = request.directories.filter { !request.excluded.contains($0) }[...]
        reading += queue
        while let directory = queue.popFirst(), walked < maximumEntries {
            guard let listed = try? FileDescriptor.open(directory, as: .directory) else {
                continue
            }
            try? listed.forEachEntryName { name in
                walked += 1
                guard walked <= maximumEntries,
                    case .success(let status) = listed.statusOfEntry(cName: name, followLinks: false)
                else { return }
                let path = directory + "/" + String(cString: name)
                if status.kind == .symbolicLink { reading.append(path) }
                if status.kind == .directory { queue.append(path) }
            }
        }
        return WorkerSandbox.Paths(reading: reading, writing: [request.buildDirectory])
    }

    /// Caches each directory and its subdirectories, one reply per directory, then `end`.
    private static func serve(_ request: FontconfigCacheRequest, config: OpaquePointer, options: Options) -> Int32 {
        func send(_ reply: FontconfigCacheReply) -> Bool {
            (try? PacketSocket.send(socket, reply.encoded)) != nil
        }
        var queue = request.directories[...]
        var seen = Set<String>()
        var count = 0
        while let directory = queue.popFirst() {
            guard seen.insert(directory).inserted else { continue }
            if request.excluded.contains(directory) {
                guard send(.skipped(directory, "it crashed the cache worker before")) else { return 71 }
                continue
            }
            count += 1
            guard count <= options.maximumDirectories else {
                guard send(.skipped(directory, "more than \(options.maximumDirectories) directories to cache"))
                else { return 71 }
                continue
            }
            // Said before anything reads the directory, so that a crash is blamed on it.
            guard send(.started(directory)) else { return 71 }
            let (entries, escapes) = entryCount(directory, crashOnFault: options.testFaults)
            for escape in escapes {
                for probe in attemptEscapes(listedIn: escape) { guard send(probe) else { return 71 } }
            }
            guard let entries else {
                guard send(.skipped(directory, "the cache worker's user cannot list it")) else { return 71 }
                continue
            }
            if entries > options.maximumEntries {
                let why = "it has \(entries) entries, more than the \(options.maximumEntries) the daemon caches"
                guard send(.skipped(directory, why)) else { return 71 }
                continue
            }
            guard let cache = FcDirCacheRead(directory, 0, config) else {
                guard send(.skipped(directory, "fontconfig could not read it")) else { return 71 }
                continue
            }
            for index in 0..<FcCacheNumSubdir(cache) {
                if let subdirectory = FcCacheSubdir(cache, index) {
                    queue.append(String(cString: subdirectory))
                }
            }
            let fonts = Int(FcCacheNumFont(cache))
            FcDirCacheUnload(cache)
            var file: UnsafeMutablePointer<FcChar8>?
            if let loaded = FcDirCacheLoad(directory, config, &file) { FcDirCacheUnload(loaded) }
            guard let file else {
                guard send(.skipped(directory, "fontconfig wrote no cache for it")) else { return 71 }
                continue
            }
            let path = String(cString: file)
            FcStrFree(file)
            guard send(.cached(directory, cacheFile: path, fonts: fonts)) else { return 71 }
        }
        return send(.end) ? 0 : 71
    }

    /// The number of entries in `directory`, or `nil` when it cannot be listed; with the tests'
    /// faults on, a file named `parser-crash…` ends the worker with a crash, as a hostile font
    /// that broke FreeType would, one named `parser-syscall…` makes it create a socket, which
    /// its filter answers by killing it, and the paths of files named `parser-escape…` are returned.
    private static func entryCount(_ directory: String, crashOnFault: Bool) -> (Int?, [String]) {
        guard let descriptor = try? FileDescriptor.open(directory, as: .directory) else { return (nil, []) }
        var count = 0
        var crash = false
        var forbidden = false
        var escapes: [String] = []
        let listed: ()? = try? descriptor.forEachEntryName { name in
            count += 1
            guard crashOnFault else { return }
            let text = String(cString: name)
            if text.contains("parser-crash") { crash = true }
            if text.contains("parser-syscall") { forbidden = true }
            if text.contains("parser-escape") { escapes.append(directory + "/" + text) }
        }
        if crash { ChildProcess.crashForTesting() }
        if forbidden { ChildProcess.attemptForbiddenSocket() }
        return (listed == nil ? nil : count, escapes)
    }

    /// The tests' escape attempts: `file` lists, a line each, an access (`read`, `write`, `create`,
    /// `remove`) and a path, which the worker tries as a hostile font's code would; each result
    /// goes back as a ``FontconfigCacheReply/probed(_:path:error:)`` (the sandbox must refuse them all).
    private static func attemptEscapes(listedIn file: String) -> [FontconfigCacheReply] {
        guard let text = try? FileDescriptor.open(file, as: .file).readAll(limit: 1 << 16) else { return [] }
        return String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let access = ChildProcess.AttemptedAccess(rawValue: parts[0]) else { return nil }
            return .probed(parts[0], path: parts[1], error: ChildProcess.attempt(access, on: parts[1]))
        }
    }

    /// `text` escaped for XML.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Reads the worker's options (``WorkerArguments``), or `nil` when they are not understood.
    static func parse(_ arguments: [String]) -> Options? {
        WorkerArguments<Options>()
            .number("--max-entries", \.maximumEntries).number("--max-directories", \.maximumDirectories)
            .parse(arguments, defaults: Options())
    }
}

/// What the daemon asks the cache worker: one message, fields separated by NUL (no path holds one).
package struct FontconfigCacheRequest: Sendable, Equatable {
    /// The private directory, owned by the worker's user, that fontconfig writes fresh caches into.
    package var buildDirectory: String
    /// The daemon's cache directory (read-only to the worker).
    package var cacheDirectory: String
    /// The registered directories to cache (subdirectories are found by fontconfig).
    package var directories: [String]
    /// Directories not to cache: they crashed a worker earlier in this round.
    package var excluded: Set<String> = []

    /// A request.
    package init(buildDirectory: String, cacheDirectory: String, directories: [String], excluded: Set<String> = []) {
        self.buildDirectory = buildDirectory
        self.cacheDirectory = cacheDirectory
        self.directories = directories
        self.excluded = excluded
    }

    /// The message: build directory, cache directory, the directories, an empty field, the exclusions.
    package var encoded: [UInt8] {
        let fields = [buildDirectory, cacheDirectory] + directories + [""] + excluded.sorted()
        return Array(fields.joined(separator: "\0").utf8)
    }

    /// Reads a message, or `nil` when it is not one.
    package static func decode(_ bytes: [UInt8]) -> FontconfigCacheRequest? {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard fields.count >= 3, let gap = fields[2...].firstIndex(of: "") else { return nil }
        return FontconfigCacheRequest(
            buildDirectory: fields[0], cacheDirectory: fields[1], directories: Array(fields[2..<gap]),
            excluded: Set(fields[(gap + 1)...]))
    }
}

/// One message from the cache worker: fields separated by NUL.
package enum FontconfigCacheReply: Sendable, Equatable {
    /// fontconfig is about to read (and perhaps scan) this directory.
    case started(String)
    /// The directory's current cache is this file, holding this many fonts.
    case cached(String, cacheFile: String, fonts: Int)
    /// The directory was not cached, and why.
    case skipped(String, String)
    /// Every directory was answered.
    case end
    /// Test faults only: what the kernel answered an escape attempt (an access, a path, 0 or the error number).
    case probed(String, path: String, error: Int32)

    /// The message's bytes.
    package var encoded: [UInt8] {
        let fields: [String]
        switch self {
        case .started(let directory): fields = ["started", directory]
        case .cached(let directory, let file, let fonts): fields = ["cached", directory, file, String(fonts)]
        case .skipped(let directory, let why): fields = ["skipped", directory, why]
        case .end: fields = ["end"]
        case .probed(let access, let path, let error): fields = ["probed", access, path, String(error)]
        }
        return Array(fields.joined(separator: "\0").utf8)
    }

    /// Reads a message, or `nil` when it is not one.
    package static func decode(_ bytes: [UInt8]) -> FontconfigCacheReply? {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        switch (fields.first, fields.count) {
        case ("started", 2): return .started(fields[1])
        case ("cached", 4): return Int(fields[3]).map { .cached(fields[1], cacheFile: fields[2], fonts: $0) }
        case ("skipped", 3): return .skipped(fields[1], fields[2])
        case ("end", 1): return .end
        case ("probed", 4): return Int32(fields[3]).map { .probed(fields[1], path: fields[2], error: $0) }
        default: return nil
        }
    }
}

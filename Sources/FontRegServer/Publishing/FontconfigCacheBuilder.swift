import FontRegCore
import FontRegSystem

/// Keeps fontconfig's caches of the registered directories in the bridge's `<cachedir>`, built
/// by the confined cache worker (``FontconfigCacheWorker``, issue 28).
///
/// One round per change the bridge sees: the worker (this executable, `--fontconfig-cache-worker`,
/// as the parse workers' user) is handed the directories and a private build directory given to
/// its user; fontconfig in the worker writes every stale or missing cache there. The daemon then
/// copies each into the cache directory with ``AtomicFile`` (mode 0644), after checking that it
/// is a regular file with a cache file's name, one link and the worker's user as owner, no larger
/// than the worker's file limit; nothing the worker leaves is moved or followed. A cache file no directory uses any more is removed.
/// A worker that crashes (a hostile font that broke FreeType) is logged with the directory it
/// was reading; the round goes on in a new worker without that directory, which stays uncached
/// until it changes.
final class FontconfigCacheBuilder: @unchecked Sendable {
    // @unchecked: used only on the fontconfig bridge's serial queue, so its memory of crashes needs no lock.
    /// The directory fontconfig reads the caches from (the bridge's `<cachedir>`).
    let cacheDirectory: String
    /// The worker's private build directory.
    let buildDirectory: String
    private let executable: String
    private let arguments: [String]
    private let user: String
    private let logger: Logger
    private let timeoutMilliseconds: Int
    /// Directories that crashed a worker, with their modification time then: not tried again until it changes.
    private var crashed: [String: Int] = [:]
    /// What was logged as skipped, so that each reason is logged once per directory.
    private var logged: [String: String] = [:]
    /// The uid the build directory was given to (the worker's), when the daemon runs as root.
    private var workerOwner: UInt32?

    /// A builder; nothing runs until ``refresh(_:)``.
    ///
    /// - Parameters:
    ///   - cacheDirectory: the `<cachedir>`, which the daemon alone may write.
    ///   - buildDirectory: a directory the builder may create and give to `user`.
    ///   - executable: the worker's executable (`/proc/self/exe`).
    ///   - arguments: the arguments selecting the worker mode, and the tests' faults.
    ///   - user: the unprivileged user the worker runs as.
    ///   - timeoutSeconds: the wall-clock time one round may take before the worker is killed.
    init(
        cacheDirectory: String, buildDirectory: String, executable: String, arguments: [String], user: String,
        timeoutSeconds: Int, logger: Logger
    ) {
        self.cacheDirectory = cacheDirectory
        self.buildDirectory = buildDirectory
        self.executable = executable
        self.arguments = arguments
        self.user = user
        self.timeoutMilliseconds = timeoutSeconds * 1000
        self.logger = logger
    }

    /// What one round did (for tests and the log).
    struct Round: Equatable {
        /// The cache files the directories use now (names in the cache directory).
        var current: Set<String> = []
        /// Cache files copied in.
        var written = 0
        /// Cache files removed as no longer used.
        var removed = 0
        /// Whether every directory was answered (stale files are removed only then).
        var complete = false
        /// The directories a worker died reading, with the signal that ended it (0 when it exited).
        var crashed: [String: Int32] = [:]
        /// Test faults only: the escape attempts a worker made, each `ACCESS PATH ERRNO`.
        var probes: [String] = []
    }

    /// Brings the caches up to date for `directories` (each a `<dir>` of the bridge file).
    @discardableResult
    func refresh(_ directories: [String]) -> Round {
        var round = Round()
        guard let build = prepareBuildDirectory() else { return round }
        var excluded = Set(crashed.keys.filter { crashed[$0] == Self.modified($0) })
        for key in crashed.keys where !excluded.contains(key) { crashed[key] = nil }
        var attempts = 0
        while !directories.isEmpty {
            attempts += 1
            let request = FontconfigCacheRequest(
                buildDirectory: buildDirectory, cacheDirectory: cacheDirectory, directories: directories,
                excluded: excluded)
            let outcome = run(request, into: &round)
            switch outcome {
            case .complete:
                round.complete = true
            case .crashed(let directory?) where attempts < 4:
                crashed[directory] = Self.modified(directory)
                excluded.insert(directory)
                continue
            case .crashed, .failed:
                break
            }
            break
        }
        if directories.isEmpty { round.complete = true }
        install(from: build, into: &round)
        return round
    }

    /// How one worker's run ended.
    private enum Outcome {
        case complete
        /// It died, while reading this directory if it said which.
        case crashed(String?)
        /// It could not be started or timed out (logged).
        case failed
    }

    /// Runs one worker on `request`, recording what its replies say.
    private func run(_ request: FontconfigCacheRequest, into round: inout Round) -> Outcome {
        let child: ChildProcess
        let ours: FileDescriptor
        do {
            let (mine, theirs) = try PacketSocket.pair()
            child = try ChildProcess(
                executable: executable, arguments: arguments + ["--user", user], descriptor: theirs.rawValue)
            ours = mine
            try PacketSocket.send(ours.rawValue, request.encoded)
        } catch {
            logger.warning("fontconfig caches: cannot start the cache worker: \(error)")
            return .failed
        }
        let deadline = MonotonicClock.microseconds + UInt64(timeoutMilliseconds) * 1000
        var current: String?
        while true {
            let now = MonotonicClock.microseconds
            guard now < deadline else {
                child.kill()
                _ = child.wait(blocking: true)
                logger.warning(
                    "fontconfig caches: the cache worker took longer than \(timeoutMilliseconds / 1000) s"
                        + (current.map { " (reading \($0))" } ?? "") + "; killed, the rest is left uncached")
                return .failed
            }
            let ready = (try? PacketSocket.waitReadable([ours.rawValue], milliseconds: Int((deadline - now) / 1000)))
            guard ready?.isEmpty == false else { continue }
            guard let message = try? PacketSocket.receive(ours.rawValue, capacity: FontconfigCacheWorker.replyCapacity),
                !message.bytes.isEmpty
            else { break }
            guard let reply = FontconfigCacheReply.decode(message.bytes) else { break }
            switch reply {
            case .started(let directory): current = directory
            case .cached(_, let file, _):
                current = nil
                round.current.insert(Self.baseName(file))
            case .skipped(let directory, let why):
                current = nil
                if logged[directory] != why {
                    logged[directory] = why
                    logger.warning(
                        "fontconfig caches: \(directory) is not cached (\(why)); applications scan it themselves")
                }
            case .probed(let access, let path, let error):
                round.probes.append("\(access) \(path) \(error)")
            case .end:
                _ = child.wait(blocking: true)
                return .complete
            }
        }
        let ending = child.wait(blocking: true)
        let what: String
        switch ending {
        case .signaled(let signal):
            what = "was killed by signal \(signal)"
            if let current { round.crashed[current] = signal }
        case .exited(let status):
            what = "exited with status \(status)"
            if let current { round.crashed[current] = 0 }
        case nil: what = "stopped answering"
        }
        logger.warning(
            "fontconfig caches: the cache worker \(what)"
                + (current.map { " while reading \($0); that directory stays uncached until it changes" } ?? ""))
        return .crashed(current)
    }

    /// Creates (or empties) the build directory and gives it to the worker's user, mode 0700.
    private func prepareBuildDirectory() -> FileDescriptor? {
        do {
            if (try? Syscall.status(ofPath: buildDirectory, followLinks: false)) == nil {
                try Syscall.makeDirectory(buildDirectory, mode: 0o700)
            }
            let build = try FileDescriptor.open(buildDirectory, as: .directory, followLinks: false)
            empty(build)
            if Syscall.effectiveUserID == 0, let owner = WorkerSandbox.user(named: user) {
                try build.setOwner(owner.uid, group: owner.gid)
                workerOwner = owner.uid
            }
            try build.setPermissions(0o700)
            return build
        } catch {
            logger.warning("fontconfig caches: cannot prepare \(buildDirectory): \(error); caches are not built")
            return nil
        }
    }

    /// Removes what a worker left in the build directory (files only: it can make nothing else worth keeping).
    private func empty(_ build: FileDescriptor) {
        for name in (try? build.entryNames()) ?? [] { try? build.removeEntry(name) }
    }

    /// Copies the fresh caches in and removes the ones no directory uses.
    private func install(from build: FileDescriptor, into round: inout Round) {
        for name in (try? build.entryNames()) ?? [] where Self.isCacheName(name) && round.current.contains(name) {
            do {
                let file = try build.openEntry(name, as: .file)
                let status = try file.status()
                // A file the worker wrote itself: one name, its owner. A hard link to someone else's
                // file (where `fs.protected_hardlinks` is off) would otherwise be copied out world-readable.
                guard status.kind == .regular, status.size <= Int64(FontconfigCacheWorker.cacheFileLimit),
                    status.linkCount == 1, workerOwner.map({ status.owner == $0 }) ?? true
                else {
                    logger.warning("fontconfig caches: the worker left \(name), not a cache file; ignored")
                    continue
                }
                let bytes = try file.readAll(limit: Int(FontconfigCacheWorker.cacheFileLimit))
                try AtomicFile.write(bytes, directory: cacheDirectory, name: name, mode: 0o644, exactMode: true)
                round.written += 1
            } catch {
                logger.warning("fontconfig caches: cannot install \(name) into \(cacheDirectory): \(error)")
            }
        }
        empty(build)
        guard round.complete, let cache = try? FileDescriptor.open(cacheDirectory, as: .directory) else { return }
        for name in (try? cache.entryNames()) ?? [] where Self.isCacheName(name) && !round.current.contains(name) {
            if (try? cache.removeEntry(name)) != nil { round.removed += 1 }
        }
    }

    /// Whether `name` is a fontconfig cache file's name: 32 hex digits (the MD5 of the directory's
    /// path), `-`, the architecture, `.cache-` and the format version (`…-le64.cache-8`).
    static func isCacheName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit) else { return false }
        let rest = parts[1].split(separator: ".")
        guard rest.count == 2, rest[0].allSatisfy({ $0.isLetter || $0.isNumber }), rest[1].hasPrefix("cache-"),
            rest[1].dropFirst(6).allSatisfy(\.isNumber), rest[1].count > 6
        else { return false }
        return true
    }

    private static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// A directory's modification time, or -1 when it cannot be read.
    private static func modified(_ path: String) -> Int {
        (try? Syscall.status(ofPath: path, followLinks: true))?.modifiedNanoseconds ?? -1
    }
}

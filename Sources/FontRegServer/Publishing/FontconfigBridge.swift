import Dispatch
import FontRegCore
import FontRegService
import FontRegSystem
import Synchronization

/// Keeps a fontconfig configuration file that shows every fontconfig application the registry
/// (issue 28, the `fontconfig-config` setting): its directories and single files, its
/// administrators' disables as `<rejectfont>`, and the rules' aliases.
///
/// The file (mode 0644) sits in a directory of its own (0755) that also holds `files/`, the
/// links to single registered files (fontconfig has no per-file `<dir>`), `cache/`, the
/// `<cachedir>` it names, which ``FontconfigCacheBuilder`` keeps filled with fontconfig's caches
/// of the registered directories after every change, and `.cache-build/`, the cache worker's
/// private build directory. It is rewritten atomically on the bridge's own queue after every change
/// of the registry, of what is disabled and of the rules; a rewrite that would not change the
/// file is skipped, so fontconfig's caches and `FcConfigUptoDate` see no change. At stop it is
/// rewritten with only what outlives the daemon (configured directories, persistent
/// registrations, disables, aliases).
final class FontconfigBridge: DaemonService {
    package let name = "fontconfig bridge"
    /// The generated file.
    package let path: String
    /// The file's directory and name.
    let directory: String, fileName: String
    private let service: RegistryService
    private let logger: Logger
    private let queue = DispatchQueue(label: "fontreg.fontconfig-bridge")
    private let state = Mutex(State())
    /// Builds fontconfig's caches of the registered directories; `nil` leaves them to applications.
    private let cacheBuilder: FontconfigCacheBuilder?

    /// What the bridge keeps between writes.
    private struct State {
        /// The text last written.
        var written: String?
        /// The registry observer's token.
        var observer: Int?
        /// What was already logged as left out, so that each is logged once.
        var logged: Set<String> = []
        /// Whether the last write failed (logged once until one succeeds).
        var failing = false
        /// Whether a rewrite is queued and has not started (further changes ride along with it).
        var pending = false
    }

    /// The directory of links to single registered files.
    package var linkDirectory: String { directory + "/files" }
    /// The `<cachedir>` the file names.
    package var cacheDirectory: String { directory + "/cache" }

    /// A bridge writing `path` from what `service` serves; nothing is written until ``start()``.
    ///
    /// - Parameters:
    ///   - path: the generated file (absolute).
    ///   - service: the registry service whose registrations, disables and rules are shown.
    ///   - cacheWorker: how to start the cache worker (executable, arguments, user), or `nil` to
    ///     build no caches.
    ///   - logger: where write failures and left-out paths are reported.
    package init(
        path: String, service: RegistryService,
        cacheWorker: (executable: String, arguments: [String], user: String)? = nil, logger: Logger
    ) {
        self.path = path
        let (directory, fileName) = RegistrySocketPath.split(path)
        (self.directory, self.fileName) = (directory, fileName)
        self.service = service
        self.logger = logger
        cacheBuilder = cacheWorker.map {
            FontconfigCacheBuilder(
                cacheDirectory: directory + "/cache", buildDirectory: directory + "/.cache-build",
                executable: $0.executable, arguments: $0.arguments, user: $0.user, timeoutSeconds: 300,
                logger: logger)
        }
    }

    /// Creates the bridge's directories, watches the registry and writes the file on the queue.
    ///
    /// A directory that cannot be created is logged, never fatal: the daemon serves without the bridge.
    package func start() throws {
        do {
            // Only directories made here get 0755 (the umask would narrow mkdir's mode): one that
            // exists already, such as systemd's runtime directory, is left as it is.
            for directory in [directory, linkDirectory, cacheDirectory]
            where (try? Syscall.status(ofPath: directory, followLinks: false)) == nil {
                try Syscall.makeDirectories(directory)
                try FileDescriptor.open(directory, as: .directory).setPermissions(0o755)
            }
        } catch {
            logger.warning(
                "cannot set up the fontconfig bridge \(path): \(error); fontconfig applications do not see the registry"
            )
        }
        let token = service.registry.addObserver { [weak self] _ in self?.schedule() }
        state.withLock { $0.observer = token }
        schedule()
    }

    /// Stops watching, then leaves the file with only what outlives the daemon.
    package func stop(before deadline: DispatchTime) -> Bool {
        if let token = state.withLock({ $0.observer }) { service.registry.removeObserver(token) }
        queue.sync { write(outlivingDaemon: true) }
        return true
    }

    /// Asks for a rewrite, and a refresh of the caches, on the bridge's queue; changes that come
    /// while one is queued are served by it.
    package func schedule() {
        guard
            state.withLock({ state in
                !state.pending
                    && {
                        state.pending = true; return true
                    }()
            })
        else { return }
        queue.async { [self] in
            state.withLock { $0.pending = false }
            write(outlivingDaemon: false)
            refreshCaches(content(outlivingDaemon: false))
        }
    }

    /// Brings fontconfig's caches up to date for the `<dir>`s of `content`.
    private func refreshCaches(_ content: FontconfigBridgeContent) {
        guard let cacheBuilder else { return }
        var directories = content.directories.filter { FontconfigBridgeContent.refusal(of: $0, isPath: true) == nil }
        if !content.files.isEmpty { directories.append(linkDirectory) }
        cacheBuilder.refresh(directories)
    }

    /// Waits until every rewrite asked for so far has finished (tests).
    package func flush() { queue.sync {} }

    /// The content for what the service shows now: registered paths sorted into directories and
    /// single files (a path that is neither now, such as an unmounted disk, is left out).
    func content(outlivingDaemon: Bool) -> FontconfigBridgeContent {
        let source = service.fontconfigBridgeSource(outlivingDaemon: outlivingDaemon)
        var content = FontconfigBridgeContent(linkDirectory: linkDirectory, cacheDirectory: cacheDirectory)
        content.disabled = source.disabled
        content.aliases = source.aliases
        for path in source.registered {
            guard FontconfigBridgeContent.refusal(of: path, isPath: true) == nil else {
                content.directories.append(path)  // left out, and logged, by the content's `xml`
                continue
            }
            switch (try? Syscall.status(ofPath: path, followLinks: true))?.kind {
            case .directory: content.directories.append(path)
            case .regular: content.files.append(.init(path: path, link: linkDirectory + "/" + Self.linkName(for: path)))
            default: continue
            }
        }
        return content
    }

    /// Rewrites the links and the file when what they say changed.
    private func write(outlivingDaemon: Bool) {
        let content = content(outlivingDaemon: outlivingDaemon)
        keepLinks(content.files)
        let rendered = content.xml
        let fresh = state.withLock { state in rendered.skipped.filter { state.logged.insert($0).inserted } }
        for line in fresh { logger.warning(line) }
        guard rendered.text != state.withLock({ $0.written }) else { return }
        do {
            try AtomicFile.write(
                Array(rendered.text.utf8), directory: directory, name: fileName, mode: 0o644, exactMode: true)
        } catch {
            let first = state.withLock { state -> Bool in
                defer { state.failing = true }
                return !state.failing
            }
            if first { logger.warning("cannot write the fontconfig bridge \(path): \(error)") }
            return
        }
        state.withLock {
            $0.written = rendered.text
            $0.failing = false
        }
    }

    /// Makes the directory of links hold exactly one link per single file, to that file.
    private func keepLinks(_ files: [FontconfigBridgeContent.LinkedFile]) {
        guard let links = try? FileDescriptor.open(linkDirectory, as: .directory) else { return }
        var wanted: [String: String] = [:]
        for file in files where FontconfigBridgeContent.refusal(of: file.path, isPath: true) == nil {
            wanted[Self.linkName(for: file.path)] = file.path
        }
        // Only links are the bridge's: anything else someone put in the directory stays.
        let existing = ((try? links.entryNames()) ?? []).filter {
            (try? links.statusOfEntry($0))?.kind == .symbolicLink
        }
        for name in existing where wanted[name] == nil || (try? links.linkText(name)) != wanted[name] {
            try? links.removeEntry(name)
        }
        let kept = Set((try? links.entryNames()) ?? [])
        for (name, target) in wanted where !kept.contains(name) {
            do {
                try links.makeSymbolicLink(name, to: target)
            } catch {
                logger.warning("fontconfig bridge: cannot link \(target) into \(linkDirectory): \(error)")
            }
        }
    }

    /// The link's name for a single file: a hash of the whole path (two files of one name do not
    /// collide) and the file's own name (for people reading `fc-list`).
    static func linkName(for path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for byte in path.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        let base = path.split(separator: "/").last.map(String.init) ?? "font"
        return String(repeating: "0", count: 16 - digits.count) + digits + "-" + base
    }
}

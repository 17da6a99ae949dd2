import Dispatch
import FontRegCore
import FontRegSystem
import Synchronization

/// Publishes the registry as a mapped snapshot beside the socket (`<socket>.snapshot`),
/// rewritten atomically after every change, so that clients resolve without a round trip.
///
/// The file is readable by those who may connect to the socket, and no one else: its mode is
/// the socket's read bits (0644 for the default socket mode 0666, 0640 for 0660, 0600 for 0600), so that a
/// socket closed to some users does not leak the registry to them through the file.
///
/// Each file records a generation that grows with every change (and across restarts: it
/// continues from the file a previous daemon left). Once a new file has been renamed over the
/// old one, the old file is marked superseded in place (``MappedSnapshot/isCurrent``), so a
/// client that mapped it notices before its next answer. At stop the file is marked and
/// removed: clients then go to the socket. Writing runs on a queue of its own, off the
/// threads that answer calls; changes that arrive while one is written are coalesced.
package final class SnapshotPublisher: DaemonService {
    package let name = "snapshot"
    /// The registry published.
    private let registry: FontRegistry
    /// The directory and file name of the snapshot.
    package let directory: String, fileName: String
    /// What to publish now: the index every user sees (`nil`: withdraw the file, clients use
    /// the socket) and a stamp that changes whenever that would change. **The one place where
    /// what is published is decided** is the daemon's source (``RegistryService/snapshotSource()``):
    /// no face a user could not see, nothing disabled.
    private let source: @Sendable () -> (index: FontIndex?, stamp: String)
    private let logger: Logger
    private let queue = DispatchQueue(label: "fontreg.snapshot")
    private let state = Mutex(State())

    /// What the publisher keeps between writes.
    private struct State: ~Copyable {
        /// The file last published, open to mark it superseded.
        var current: PublishedFile?
        /// The generation of the file a previous daemon left, added to the index's.
        var base: UInt64 = 0
        /// The stamp last published or withdrawn (nil: none yet).
        var published: String?
        /// The observer token.
        var observer: Int?
        /// Whether the last write failed (logged once until one succeeds).
        var failing = false
    }

    /// The snapshot path that follows from a socket path: the socket's path with `.snapshot` appended.
    ///
    /// - Parameter socketPath: the daemon's socket.
    /// - Returns: the path clients look for the snapshot at.
    package static func path(forSocket socketPath: String) -> String { socketPath + ".snapshot" }

    /// A publisher of `registry` beside `socketPath`; nothing is written until ``start()``.
    ///
    /// - Parameters:
    ///   - registry: the registry to publish.
    ///   - socketPath: the daemon's socket path.
    ///   - source: what to publish (by default the registry's whole index).
    ///   - logger: where write failures are reported.
    package init(
        registry: FontRegistry, socketPath: String,
        source: (@Sendable () -> (index: FontIndex?, stamp: String))? = nil, logger: Logger
    ) {
        self.registry = registry
        (directory, fileName) = RegistrySocketPath.split(Self.path(forSocket: socketPath))
        self.source = source ?? { [registry] in (registry.index, "g\(registry.index.generation)") }
        self.logger = logger
        self.socketPath = socketPath
    }

    /// The socket, whose permissions the snapshot's follow.
    private let socketPath: String

    /// The snapshot's mode: the socket's read bits, and read and write for the daemon's user
    /// (which marks the file superseded in place); 0600 when the socket cannot be examined.
    var fileMode: UInt32 {
        let (directory, name) = RegistrySocketPath.split(socketPath)
        guard let status = try? FileDescriptor.open(directory, as: .directory).statusOfEntryFollowingLinks(name)
        else { return 0o600 }
        return (status.permissions & 0o444) | 0o600
    }

    /// The snapshot's path.
    package var path: String { directory == "/" ? "/" + fileName : directory + "/" + fileName }

    /// Takes over the file a previous daemon left (its generation, and the right to mark it),
    /// watches the registry and writes the first snapshot on the publisher's queue.
    package func start() throws {
        // Only a file that can be nothing but a previous daemon's is taken over (issue 24): one a
        // local user planted (a link, another user's file, a second name of a file) is replaced by
        // the first write, never marked, and its generation is not read.
        let previous = PublishedFile.open(directory: directory, name: fileName)
        let left = previous?.word(at: MappedSnapshot.generationOffset)
        let base = Self.continuedGeneration(after: left)
        if let left, base == 0 {
            logger.warning(
                "the snapshot \(path) left by a previous daemon records the absurd generation \(left): starting over at 0"
            )
        }
        state.withLock {
            $0.current = previous
            $0.base = base
        }
        let token = registry.addObserver { [weak self] _ in self?.schedule() }
        state.withLock { $0.observer = token }
        schedule()
    }

    /// The largest generation taken over from a previous daemon's file: far more changes than a
    /// registry makes in a lifetime, and far enough from `UInt64.max` that nothing added to it overflows.
    static let largestContinuedGeneration: UInt64 = 1 << 48

    /// The first generation of this run, after the generation `left` a previous daemon's file recorded.
    ///
    /// - Parameter left: the generation read from the file, `nil` when there was no file of ours.
    /// - Returns: `left + 1`, or 0 (start over) with no file or an absurd value (over ``largestContinuedGeneration``).
    static func continuedGeneration(after left: UInt64?) -> UInt64 {
        guard let left, left < largestContinuedGeneration else { return 0 }
        return left + 1
    }

    /// Stops watching, waits for a write in progress, then marks the file superseded and removes it.
    package func stop(before deadline: DispatchTime) -> Bool {
        if let token = state.withLock({ $0.observer }) { registry.removeObserver(token) }
        queue.sync {}
        withdraw(mark: UInt64.max)
        return true
    }

    /// Asks for a write of the current index on the queue.
    package func schedule() {
        queue.async { [self] in
            publish()
            // The file's bytes were copied to write it (5 MiB at 10,000 faces), here after every
            // start: glibc keeps the freed pages dirty until trimmed (issue 29, docs/benchmarks.md).
            Memory.trim()
        }
    }

    /// Waits until every write asked for so far has finished (tests).
    package func flush() { queue.sync {} }

    /// Writes the current index if it differs from the one published, then marks the old file;
    /// withdraws the file when nothing may be published.
    private func publish() {
        let (index, stamp) = source()
        let (base, published) = state.withLock { ($0.base, $0.published) }
        guard stamp != published else { return }
        guard let index else {
            withdraw(mark: Self.mark(base &+ 1))
            state.withLock { $0.published = stamp }
            return
        }
        // Wrapping and clamping arithmetic: no number here can trap the daemon (issue 24); `base`
        // is bounded at start, so none wraps in practice.
        let generation = (base &+ UInt64(clamping: index.generation)) & UInt64(Int.max)
        // The public part only (issue 13): a mapped index's own file is copied up to its public end.
        do {
            try index.withPublishedParts(rules: registry.rules, generation: Int(generation)) {
                (parts) throws(SystemError) in
                try AtomicFile.write(parts: parts, directory: directory, name: fileName, mode: fileMode)
            }
        } catch {
            let first = state.withLock { state -> Bool in
                defer { state.failing = true }
                return !state.failing
            }
            if first {
                logger.warning(
                    "cannot publish the snapshot \(path): \(error); clients use the socket until a write succeeds")
            }
            return
        }
        let written = PublishedFile.open(directory: directory, name: fileName)
        let old = state.withLock { state -> PublishedFile? in
            defer {
                state.current = written
                state.published = stamp
                // A later file of the same index generation (after a platform change) still needs a new number.
                state.base &+= 1
                state.failing = false
            }
            return state.current
        }
        try? old?.write(Self.mark(generation), at: MappedSnapshot.supersededMarkOffset)
    }

    /// A superseded mark for `generation`: never 0, which would say "current".
    static func mark(_ generation: UInt64) -> UInt64 { generation == 0 ? 1 : generation }

    /// Marks the published file superseded and removes it, so that clients use the socket.
    private func withdraw(mark: UInt64) {
        let current = state.withLock { state -> PublishedFile? in
            defer { state.current = nil }
            return state.current
        }
        try? current?.write(mark, at: MappedSnapshot.supersededMarkOffset)
        PublishedFile.remove(directory: directory, name: fileName)
    }
}

/// Splitting the socket's and the snapshot's paths into a directory and a name.
enum RegistrySocketPath {
    /// A path's directory ("." for a bare name) and last component.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }
}

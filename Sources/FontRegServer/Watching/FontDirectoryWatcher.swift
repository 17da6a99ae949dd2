import Dispatch
import FontRegSystem
import Foundation
import Synchronization

/// Watches font directories (recursively) with inotify and calls back once changes settle.
///
/// Changes are debounced: the callback runs after `debounce` has passed with no new event,
/// so copying a family of twenty files causes one rescan, not twenty, and at the latest
/// ``longestDelayMilliseconds`` after the first event of a burst that never settles (a flood
/// is one callback a few seconds, however many events it makes). It is given the roots whose
/// trees changed, each once, so that the daemon charges a rescan to whoever registered them
/// (issue 24). It runs on the watcher's own thread, which ``stop(before:)`` ends.
///
/// Every directory is opened through descriptors before it is watched, the way the scanner
/// reads it: a root inside an allowed root is opened beneath it with no symbolic link
/// followed, subdirectories are opened from their parent with `O_NOFOLLOW`, and the watch is
/// put on the opened directory itself (``Inotify/watchDirectory(_:path:)``), so a link swapped
/// in for a watched directory never moves the watch elsewhere. A queue overflow
/// (`IN_Q_OVERFLOW`) re-watches every tree and rescans; a watched root that disappears is
/// watched again as soon as it exists again (looked for every ``rootRetryMilliseconds``).
///
/// A root that is a single file (a registered font file, not a folder) is watched through its
/// directory, opened the same way, with only the events naming that file counted: since a
/// change rescans only the roots it names, such a file's change would otherwise wait for an
/// explicit `Rescan`.
package final class FontDirectoryWatcher: Sendable {
    private static let inotifyID: UInt64 = 0
    private static let stopID: UInt64 = 1
    /// How often a root that is gone is looked for again.
    static let rootRetryMilliseconds: Int32 = 1000
    /// The longest a burst of events waits before the callback, however long it goes on.
    static let longestDelayMilliseconds: UInt64 = 2000

    private let inotify: Inotify
    private let epoll: Epoll
    private let stopRequest: EventNotifier
    private let thread = Mutex<ServiceThread?>(nil)
    private let directories: Mutex<[String]>
    private let watched = Mutex<[Int32: String]>([:])
    /// The single-file roots watched through their directory: by watch, each file's name in
    /// that directory and the root it is (``watchFile(_:)``).
    private let watchedFiles = Mutex<[Int32: [String: String]]>([:])
    private let allowedRoots: [String]
    private let debounceMilliseconds: Int32
    private let logger: Logger

    /// Creates the inotify instance and watches `directories` and their subdirectories.
    ///
    /// - Parameter allowedRoots: the allowed roots (symlinks resolved); a directory inside one is
    ///   opened beneath it following no link, as the scanner opens a registered directory.
    /// - Throws: ``SystemError`` when inotify is unavailable.
    package init(directories: [String], allowedRoots: [String] = [], debounceMilliseconds: Int, logger: Logger)
        throws(SystemError)
    {
        inotify = try Inotify()
        epoll = try Epoll()
        stopRequest = try EventNotifier()
        try epoll.add(inotify.fd, events: Epoll.readable, data: FontDirectoryWatcher.inotifyID)
        try epoll.add(stopRequest.fd, events: Epoll.readable, data: FontDirectoryWatcher.stopID)
        self.directories = Mutex(directories)
        self.allowedRoots = allowedRoots
        self.debounceMilliseconds = Int32(debounceMilliseconds)
        self.logger = logger
        for directory in directories { addRoot(directory) }
    }

    /// Watches `roots` (directories, or single font files) from now on, in addition to those watched already.
    package func watch(_ roots: [String]) {
        // A root registered, unregistered and registered again in a loop is one root, not many.
        self.directories.withLock { known in
            for root in roots where !known.contains(root) { known.append(root) }
        }
        for root in roots { addRoot(root) }
    }

    /// The paths of the directories watched now (for tests and diagnostics).
    package var watchedDirectories: Set<String> { Set(watched.withLock { $0.values }) }

    /// The single-file roots watched now, through their directories (for tests and diagnostics).
    package var watchedFileRoots: Set<String> { Set(watchedFiles.withLock { $0.values.flatMap(\.values) }) }

    /// The inotify instance, for tests that read its events by hand instead of starting the thread.
    var inotifyForTests: Inotify { inotify }

    /// Opens a root the way the scanner does, or `nil` when it is not (or no longer) a directory.
    private func openRoot(_ root: String) -> FileDescriptor? {
        let inside = allowedRoots.filter { root == $0 || root.hasPrefix($0 == "/" ? "/" : $0 + "/") }
        if let allowed = inside.max(by: { $0.count < $1.count }) {
            guard let base = try? FileDescriptor.open(allowed, as: .directory, followLinks: false) else { return nil }
            return try? base.openBeneath(String(root.dropFirst(allowed.count)), as: .directory)
        }
        return try? FileDescriptor.open(root, as: .directory)
    }

    /// Watches a root: a directory with every directory below it, or a single file through its directory.
    private func addRoot(_ root: String) {
        if let directory = openRoot(root) {
            addTree(directory, path: root, depth: 0)
        } else {
            watchFile(root)
        }
    }

    /// Watches a root that is a single file (not a directory) through its directory, opened as a
    /// root is: only events naming the file count (``handle(_:changed:)``). Nothing is watched
    /// when the directory cannot be opened or the entry is a directory or missing (it is looked
    /// for again with the missing roots).
    private func watchFile(_ root: String) {
        guard let slash = root.lastIndex(of: "/") else { return }
        let name = String(root[root.index(after: slash)...])
        let parent = slash == root.startIndex ? "/" : String(root[..<slash])
        guard !name.isEmpty, let directory = openRoot(parent),
            let status = try? directory.statusOfEntry(name), status.kind != .directory
        else { return }
        do {
            let wd = try inotify.watchDirectory(directory, path: parent)
            watchedFiles.withLock { $0[wd, default: [:]][name] = root }
        } catch {
            logger.warning("cannot watch \(root) through \(parent): \(error); changes to it need a Rescan")
        }
    }

    private func addTree(_ directory: FileDescriptor, path: String, depth: Int) {
        do {
            let wd = try inotify.watchDirectory(directory, path: path)
            watched.withLock { $0[wd] = path }
        } catch {
            logger.warning("cannot watch \(path): \(error); changes there need a Rescan")
            return
        }
        // Deeper than any font tree: a bound against a directory chain built to exhaust the stack.
        guard depth < 64, let names = try? directory.entryNames() else { return }
        for name in names where !name.hasPrefix(".") {
            guard let status = try? directory.statusOfEntry(name), status.kind == .directory,
                let child = try? directory.openEntry(name, as: .directory)
            else { continue }
            addTree(child, path: path + "/" + name, depth: depth + 1)
        }
    }

    /// Watches a directory that appeared inside a watched one, opened from its parent.
    private func addNew(name: String, parent: String) {
        guard let parentDirectory = openRoot(parent), let child = try? parentDirectory.openEntry(name, as: .directory)
        else { return }
        addTree(child, path: parent + "/" + name, depth: 0)
    }

    /// The roots not watched now (deleted, moved away, or never there).
    private var missingRoots: [String] {
        let watching = watchedDirectories.union(watchedFileRoots)
        return directories.withLock { $0 }.filter { !watching.contains($0) }
    }

    /// Starts the watcher thread; `onChange` runs there after each settled burst of changes, given
    /// the roots (as given to ``init(directories:allowedRoots:debounceMilliseconds:logger:)`` or
    /// ``watch(_:)``) whose trees changed.
    package func start(onChange: @escaping @Sendable ([String]) -> Void) {
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = ServiceThread(name: "fontregd-inotify") { [self] in
                // A flood of events is read at nice 10: it yields the CPU to the loops and the changes.
                do {
                    try ThreadPriority.setCurrentThreadNice(10)
                } catch {
                    logger.warning("fontregd-inotify runs at normal priority: \(error)")
                }
                run(onChange: onChange)
            }
        }
    }

    /// Ends the watcher thread (a rescan it is running finishes first), waiting at most until `deadline`.
    ///
    /// - Returns: whether the thread has ended.
    @discardableResult
    package func stop(before deadline: DispatchTime) -> Bool {
        stopRequest.signal()
        guard let running = thread.withLock({ $0 }) else { return true }
        return running.join(before: deadline)
    }

    private func run(onChange: @Sendable ([String]) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var events = [Epoll.Event](repeating: Epoll.Event(events: 0, data: 0), count: 2)
        // The directories changed since the last callback (at most every watched one), and since when.
        var changed: Set<String> = []
        var pendingSince: UInt64?
        while true {
            let ready: Int
            let timeout =
                pendingSince != nil ? debounceMilliseconds : missingRoots.isEmpty ? -1 : Self.rootRetryMilliseconds
            do {
                ready = try epoll.wait(into: &events, timeout: timeout)
            } catch {
                logger.error("inotify wait failed: \(error); font directories are no longer watched")
                return
            }
            if events[0..<ready].contains(where: { $0.data == FontDirectoryWatcher.stopID }) { return }
            if ready == 0, pendingSince == nil {
                let back = rewatchMissingRoots()
                if !back.isEmpty {
                    changed.formUnion(back)
                    pendingSince = MonotonicClock.microseconds
                }
                continue
            }
            if ready > 0, readEvents(into: &buffer, changed: &changed), pendingSince == nil {
                pendingSince = MonotonicClock.microseconds
            }
            guard let since = pendingSince else { continue }
            if ready == 0 || MonotonicClock.microseconds - since >= Self.longestDelayMilliseconds * 1000 {
                let roots = self.roots(of: changed)
                changed = []
                pendingSince = nil
                if !roots.isEmpty { onChange(roots) }
            }
        }
    }

    /// The watched roots that hold `changed` (directories, or roots themselves), each once.
    func roots(of changed: Set<String>) -> [String] {
        let roots = directories.withLock { $0 }
        let known = Set(roots)
        var found: Set<String> = []
        for directory in changed {
            // The nearest ancestor that is a root: asked of each ancestor, not of every root.
            var path = Substring(directory)
            while !path.isEmpty {
                if known.contains(String(path)) {
                    found.insert(String(path))
                    break
                }
                guard let slash = path.lastIndex(of: "/"), slash > path.startIndex else { break }
                path = path[..<slash]
            }
        }
        return roots.filter(found.contains)
    }

    /// Reads pending events and applies them, adding the directories they happened in to
    /// `changed`; returns whether anything changed.
    private func readEvents(into buffer: inout [UInt8], changed: inout Set<String>) -> Bool {
        do {
            guard let events = try inotify.read(into: &buffer) else { return false }
            return handle(events, changed: &changed)
        } catch {
            logger.warning("reading inotify events failed: \(error)")
            return false
        }
    }

    /// Watches again the roots that came back; returns those that did (their content must then be rescanned).
    func rewatchMissingRoots() -> [String] {
        let missing = missingRoots
        for root in missing { addRoot(root) }
        let watching = watchedDirectories.union(watchedFileRoots)
        let back = missing.filter(watching.contains)
        if !back.isEmpty { logger.info("watching \(back.joined(separator: ", ")) again") }
        return back
    }

    /// Applies a batch of events to the watches; whether a rescan is due.
    func handle(_ events: [Inotify.Event]) -> Bool {
        var changed: Set<String> = []
        return handle(events, changed: &changed)
    }

    /// Applies a batch of events to the watches, adding the directories they happened in to
    /// `changed` (every root after an overflow); whether a rescan is due.
    func handle(_ events: [Inotify.Event], changed: inout Set<String>) -> Bool {
        guard !events.isEmpty else { return false }
        var newDirectories: [(name: String, parent: String)] = []
        for event in events {
            if event.isOverflow {
                // Events were lost, new subdirectories among them: watch every tree again and rescan.
                logger.warning("inotify queue overflowed; re-watching every font directory and rescanning")
                watched.withLock { $0.removeAll() }
                watchedFiles.withLock { $0.removeAll() }
                let roots = directories.withLock { $0 }
                for root in roots { addRoot(root) }
                changed.formUnion(roots)
                return true
            }
            let directory = watched.withLock { $0[event.watch] }
            if let directory { changed.insert(directory) }
            // A watched file's directory: the events naming the file only (its directory going
            // away too: the file is looked for again with the missing roots).
            if let file = watchedFiles.withLock({ files in
                defer { if event.isDirectoryGone { files[event.watch] = nil } }
                return files[event.watch]?[event.name]
            }) {
                changed.insert(file)
            }
            if event.isNewDirectory, !event.name.isEmpty, let parent = directory {
                newDirectories.append((event.name, parent))
            }
            if event.isDirectoryGone {
                _ = watched.withLock { $0.removeValue(forKey: event.watch) }
            }
        }
        for (name, parent) in newDirectories { addNew(name: name, parent: parent) }
        return true
    }
}

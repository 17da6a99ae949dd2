import Dispatch
import FontRegSystem
import Foundation
import Synchronization

/// Watches font directories (recursively) with inotify and calls back once changes settle.
///
/// Changes are debounced: the callback runs after `debounce` has passed with no new event,
/// so copying a family of twenty files causes one rescan, not twenty. It runs on the
/// watcher's own thread, which ``stop(before:)`` ends.
///
/// Every directory is opened through descriptors before it is watched, the way the scanner
/// reads it: a root inside an allowed root is opened beneath it with no symbolic link
/// followed, subdirectories are opened from their parent with `O_NOFOLLOW`, and the watch is
/// put on the opened directory itself (``Inotify/watchDirectory(_:path:)``), so a link swapped
/// in for a watched directory never moves the watch elsewhere. A queue overflow
/// (`IN_Q_OVERFLOW`) re-watches every tree and rescans; a watched root that disappears is
/// watched again as soon as it exists again (looked for every ``rootRetryMilliseconds``).
package final class FontDirectoryWatcher: Sendable {
    private static let inotifyID: UInt64 = 0
    private static let stopID: UInt64 = 1
    /// How often a root that is gone is looked for again.
    static let rootRetryMilliseconds: Int32 = 1000

    private let inotify: Inotify
    private let epoll: Epoll
    private let stopRequest: EventNotifier
    private let thread = Mutex<ServiceThread?>(nil)
    private let directories: Mutex<[String]>
    private let watched = Mutex<[Int32: String]>([:])
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
        for directory in directories { addTree(directory) }
    }

    /// Watches `directories` from now on, in addition to those watched already.
    package func watch(_ directories: [String]) {
        self.directories.withLock { $0.append(contentsOf: directories) }
        for directory in directories { addTree(directory) }
    }

    /// The paths of the directories watched now (for tests and diagnostics).
    package var watchedDirectories: Set<String> { Set(watched.withLock { $0.values }) }

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

    /// Watches `root` and every directory below it, walked through descriptors without following links.
    private func addTree(_ root: String) {
        guard let directory = openRoot(root) else { return }
        addTree(directory, path: root, depth: 0)
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
        let watching = watchedDirectories
        return directories.withLock { $0 }.filter { !watching.contains($0) }
    }

    /// Starts the watcher thread; `onChange` runs there after each settled burst of changes.
    package func start(onChange: @escaping @Sendable () -> Void) {
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = ServiceThread(name: "fontregd-inotify") { [self] in run(onChange: onChange) }
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

    private func run(onChange: @Sendable () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var events = [Epoll.Event](repeating: Epoll.Event(events: 0, data: 0), count: 2)
        var pending = false
        while true {
            let ready: Int
            let timeout = pending ? debounceMilliseconds : missingRoots.isEmpty ? -1 : Self.rootRetryMilliseconds
            do {
                ready = try epoll.wait(into: &events, timeout: timeout)
            } catch {
                logger.error("inotify wait failed: \(error); font directories are no longer watched")
                return
            }
            if events[0..<ready].contains(where: { $0.data == FontDirectoryWatcher.stopID }) { return }
            if ready == 0 {
                if pending {
                    pending = false
                    onChange()
                } else {
                    pending = rewatchMissingRoots()
                }
                continue
            }
            if readEvents(into: &buffer) { pending = true }
        }
    }

    /// Reads pending events and applies them; returns whether anything changed.
    private func readEvents(into buffer: inout [UInt8]) -> Bool {
        do {
            guard let events = try inotify.read(into: &buffer) else { return false }
            return handle(events)
        } catch {
            logger.warning("reading inotify events failed: \(error)")
            return false
        }
    }

    /// Watches again the roots that came back; whether any did (their content must then be rescanned).
    func rewatchMissingRoots() -> Bool {
        let missing = missingRoots
        for root in missing { addTree(root) }
        let back = missing.filter(watchedDirectories.contains)
        if !back.isEmpty { logger.info("watching \(back.joined(separator: ", ")) again") }
        return !back.isEmpty
    }

    /// Applies a batch of events to the watches; whether a rescan is due.
    func handle(_ events: [Inotify.Event]) -> Bool {
        guard !events.isEmpty else { return false }
        var newDirectories: [(name: String, parent: String)] = []
        for event in events {
            if event.isOverflow {
                // Events were lost, new subdirectories among them: watch every tree again and rescan.
                logger.warning("inotify queue overflowed; re-watching every font directory and rescanning")
                watched.withLock { $0.removeAll() }
                for root in directories.withLock({ $0 }) { addTree(root) }
                return true
            }
            if event.isNewDirectory, !event.name.isEmpty, let parent = watched.withLock({ $0[event.watch] }) {
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

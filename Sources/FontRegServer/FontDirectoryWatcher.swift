import Dispatch
import FontRegSystem
import Foundation
import Synchronization

/// Watches font directories (recursively) with inotify and calls back once changes settle.
///
/// Changes are debounced: the callback runs after `debounce` has passed with no new event,
/// so copying a family of twenty files causes one rescan, not twenty. It runs on the
/// watcher's own thread, which ``stop(before:)`` ends.
package final class FontDirectoryWatcher: Sendable {
    private static let inotifyID: UInt64 = 0
    private static let stopID: UInt64 = 1

    private let inotify: Inotify
    private let epoll: Epoll
    private let stopRequest: EventNotifier
    private let thread = Mutex<ServiceThread?>(nil)
    private let directories: Mutex<[String]>
    private let watched = Mutex<[Int32: String]>([:])
    private let debounceMilliseconds: Int32
    private let logger: Logger

    /// Creates the inotify instance and watches `directories` and their subdirectories.
    ///
    /// - Throws: ``SystemError`` when inotify is unavailable.
    package init(directories: [String], debounceMilliseconds: Int, logger: Logger) throws(SystemError) {
        inotify = try Inotify()
        epoll = try Epoll()
        stopRequest = try EventNotifier()
        try epoll.add(inotify.fd, events: Epoll.readable, data: FontDirectoryWatcher.inotifyID)
        try epoll.add(stopRequest.fd, events: Epoll.readable, data: FontDirectoryWatcher.stopID)
        self.directories = Mutex(directories)
        self.debounceMilliseconds = Int32(debounceMilliseconds)
        self.logger = logger
        for directory in directories { addTree(directory) }
    }

    /// Watches `directories` from now on, in addition to those watched already.
    package func watch(_ directories: [String]) {
        self.directories.withLock { $0.append(contentsOf: directories) }
        for directory in directories { addTree(directory) }
    }

    private func addTree(_ root: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            return
        }
        add(root)
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return }
        while let relative = enumerator.nextObject() as? String {
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                add(path)
            }
        }
    }

    private func add(_ directory: String) {
        do {
            let wd = try inotify.watchDirectory(directory)
            watched.withLock { $0[wd] = directory }
        } catch {
            logger.warning("cannot watch \(directory): \(error); changes there need a Rescan")
        }
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
            do {
                ready = try epoll.wait(into: &events, timeout: pending ? debounceMilliseconds : -1)
            } catch {
                logger.error("inotify wait failed: \(error); font directories are no longer watched")
                return
            }
            if events[0..<ready].contains(where: { $0.data == FontDirectoryWatcher.stopID }) { return }
            if ready == 0 {
                if pending {
                    pending = false
                    onChange()
                }
                continue
            }
            if readEvents(into: &buffer) { pending = true }
        }
    }

    /// Reads pending events, starts watching new subdirectories; returns whether anything changed.
    private func readEvents(into buffer: inout [UInt8]) -> Bool {
        let events: [Inotify.Event]
        do {
            guard let read = try inotify.read(into: &buffer) else { return false }
            events = read
        } catch {
            logger.warning("reading inotify events failed: \(error)")
            return false
        }
        var newDirectories: [String] = []
        for event in events {
            if event.isNewDirectory, !event.name.isEmpty, let parent = watched.withLock({ $0[event.watch] }) {
                newDirectories.append(parent + "/" + event.name)
            }
            if event.isDirectoryGone {
                _ = watched.withLock { $0.removeValue(forKey: event.watch) }
            }
        }
        for directory in newDirectories { addTree(directory) }
        return true
    }
}

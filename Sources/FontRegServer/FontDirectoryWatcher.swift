internal import CShim
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Foundation
import Synchronization
import Varlink

/// Watches font directories (recursively) with inotify and calls back once changes settle.
///
/// Changes are debounced: the callback runs after `debounce` has passed with no new event,
/// so copying a family of twenty files causes one rescan, not twenty. It runs on the
/// watcher's own thread.
package final class FontDirectoryWatcher: Sendable {
    private let fd: Int32
    private let directories: Mutex<[String]>
    private let watched = Mutex<[Int32: String]>([:])
    private let debounceMilliseconds: Int32
    private let logger: Logger

    /// Creates the inotify instance and watches `directories` and their subdirectories.
    ///
    /// - Throws: ``SystemError`` when inotify is unavailable.
    package init(directories: [String], debounceMilliseconds: Int, logger: Logger) throws(SystemError) {
        fd = try Syscall.run("inotify_init1") { cshim_inotify_init() }
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
        let wd = cshim_inotify_add_directory(fd, directory)
        if wd < 0 {
            logger.warning(
                "cannot watch \(directory): \(SystemError("inotify_add_watch", errno: errno)); changes there need a Rescan"
            )
            return
        }
        watched.withLock { $0[wd] = directory }
    }

    /// Starts the watcher thread; `onChange` runs there after each settled burst of changes.
    package func start(onChange: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in run(onChange: onChange) }
        thread.name = "fontregd-inotify"
        thread.start()
    }

    private func run(onChange: @Sendable () -> Void) {
        var buffer = [CChar](repeating: 0, count: 65536)
        var pending = false
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, pending ? debounceMilliseconds : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error(
                    "inotify poll failed: \(SystemError("poll", errno: errno)); font directories are no longer watched")
                return
            }
            if ready == 0 {
                pending = false
                onChange()
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            var newDirectories: [String] = []
            buffer.withUnsafeBufferPointer { pointer in
                while offset < count {
                    var wd: Int32 = 0
                    var mask: UInt32 = 0
                    var name: UnsafePointer<CChar>?
                    let length = cshim_inotify_event_at(pointer.baseAddress, Int32(offset), &wd, &mask, &name)
                    offset += Int(length)
                    if cshim_inotify_is_new_directory(mask) != 0, let name,
                        let parent = watched.withLock({ $0[wd] })
                    {
                        newDirectories.append(parent + "/" + String(cString: name))
                    }
                    if cshim_inotify_is_directory_gone(mask) != 0 {
                        _ = watched.withLock { $0.removeValue(forKey: wd) }
                    }
                }
            }
            for directory in newDirectories { addTree(directory) }
            pending = true
        }
    }
}

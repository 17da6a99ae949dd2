import Foundation

/// Scratch directories that live as long as the test process: the cache of a registry a suite
/// scans once and keeps in a `static let`, which no `deinit` or `defer` can remove.
///
/// Each is removed, with everything in it, when the process exits normally.
package enum ProcessScratch {
    /// The directories to remove at exit.
    nonisolated(unsafe) private static var directories: [String] = []
    private static let lock = NSLock()
    private static let registerRemoval: Void = {
        atexit {
            ProcessScratch.lock.lock()
            let paths = ProcessScratch.directories
            ProcessScratch.lock.unlock()
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
        }
    }()

    /// A new directory path `/tmp/<prefix>-<pid>-<n>`, not yet created, removed at exit.
    package static func directory(_ prefix: String) -> String {
        _ = registerRemoval
        lock.lock()
        defer { lock.unlock() }
        let path = NSTemporaryDirectory() + "\(prefix)-\(getpid())-\(directories.count)"
        directories.append(path)
        return path
    }

    /// Removes `path` at exit if nothing removed it before (a test that forgot, or failed first).
    package static func removeAtExit(_ path: String) {
        _ = registerRemoval
        lock.lock()
        defer { lock.unlock() }
        directories.append(path)
    }
}

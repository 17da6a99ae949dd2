import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Glibc
import Varlink

/// Registrations made with `persist`, kept in `registrations.json` in the state directory.
///
/// Every change is written to a temporary file, flushed with `fsync`, renamed over the
/// old file and made durable with an `fsync` of the directory, before the caller is
/// answered: an acknowledged registration survives a crash or `kill -9`.
package struct RegistrationStore: Sendable {
    /// The state directory.
    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    /// The state file's path.
    package var path: String { directory + "/registrations.json" }

    /// The largest state file read: a few thousand paths take kilobytes; anything this large is not ours.
    static let maximumSize = 16 << 20

    /// Reads the persisted paths, moving a corrupt state file aside instead of failing.
    ///
    /// A file this version cannot read is renamed to `registrations.json.corrupt-<UTC time>` (kept
    /// for the operator, never deleted), and the daemon starts with no persisted registrations.
    /// - Returns: the paths, and the path of the file moved aside when there was one.
    /// - Throws: ``PersistenceError/system(_:)`` when the file cannot be read or moved aside.
    package func loadMovingCorruptAside() throws(PersistenceError) -> (paths: [String], corrupt: String?) {
        do {
            return (try load(), nil)
        } catch {
            guard case .corrupt = error else { throw error }
            var now = time(nil)
            var parts = tm()
            gmtime_r(&now, &parts)
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let stamp =
                "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
                + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
            let aside = path + ".corrupt-" + stamp
            do {
                try Syscall.run("rename", subject: aside) { rename(path, aside) }
            } catch {
                throw .system(error)
            }
            return ([], aside)
        }
    }

    /// Reads the persisted paths; none when the file does not exist yet.
    ///
    /// - Throws: ``PersistenceError/corrupt(path:reason:)`` for a file this version did not write.
    package func load() throws(PersistenceError) -> [String] {
        guard let value = try readValue() else { return [] }
        guard value["version"]?.intValue == 1, let paths = value["paths"]?.arrayValue else {
            throw .corrupt(path: path, reason: "expected {\"version\": 1, \"paths\": [...]}")
        }
        guard paths.allSatisfy({ $0.stringValue != nil }) else {
            throw .corrupt(path: path, reason: "every path must be a string")
        }
        return paths.compactMap(\.stringValue)
    }

    /// The uid that registered each persisted path (issue 15), as ``save(_:owners:)`` kept it.
    ///
    /// A file written before owners were kept has none: its paths are shown as root's, as they
    /// were then. An entry that is not a path with a uid is left out; the paths still load.
    package func loadOwners() -> [String: UInt32] {
        guard let value = try? readValue(), let owners = value["owners"]?.objectValue else { return [:] }
        var result: [String: UInt32] = [:]
        for (path, uid) in owners {
            guard let number = uid.intValue, number >= 0, number <= Int(UInt32.max) else { continue }
            result[path] = UInt32(number)
        }
        return result
    }

    /// The state file parsed; `nil` when it does not exist yet.
    ///
    /// - Throws: ``PersistenceError/corrupt(path:reason:)`` for a file that is not JSON or is too large.
    private func readValue() throws(PersistenceError) -> JSONValue? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .system(SystemError("open", subject: path, errno: errno))
        }
        defer { Syscall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(SystemError("read", subject: path, errno: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > Self.maximumSize {
                throw .corrupt(path: path, reason: "larger than \(Self.maximumSize >> 20) MiB")
            }
        }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .corrupt(path: path, reason: error.description)
        }
    }

    /// Replaces the persisted paths, durably, with the uid that registered each (issue 15).
    ///
    /// The owners are a member of their own beside `paths`, so a daemon that does not know them
    /// still reads the file.
    /// - Parameters:
    ///   - paths: the persisted paths, in registration order.
    ///   - owners: the registering uid of paths that have one; other paths and uids are not written.
    /// - Throws: ``PersistenceError/system(_:)``; the old file is then left as it was.
    package func save(_ paths: [String], owners: [String: UInt32] = [:]) throws(PersistenceError) {
        var members: [String: JSONValue] = ["version": 1, "paths": .array(paths.map { .string($0) })]
        let kept = paths.compactMap { path in owners[path].map { (path, JSONValue.int(Int($0))) } }
        if !kept.isEmpty { members["owners"] = .object(Dictionary(kept) { first, _ in first }) }
        let value = JSONValue.object(members)
        var bytes = Array(value.prettyPrinted().utf8)
        bytes.append(0x0A)
        do {
            try writeDurably(bytes)
        } catch {
            throw .system(error)
        }
    }

    private func writeDurably(_ bytes: [UInt8]) throws(SystemError) {
        let temporary = path + ".tmp"
        do {
            try Syscall.run("mkdir", subject: directory) { mkdir(directory, 0o755) == 0 || errno == EEXIST ? 0 : -1 }
            let fd = try Syscall.run("open", subject: temporary) {
                open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
            }
            do {
                var offset = 0
                while offset < bytes.count {
                    offset += try Syscall.run("write", subject: temporary) {
                        bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                    }
                }
                try Syscall.run("fsync", subject: temporary) { fsync(fd) }
            } catch {
                Syscall.close(fd)
                unlink(temporary)
                throw error
            }
            Syscall.close(fd)
            try Syscall.run("rename", subject: path) { rename(temporary, path) }
            let directoryFD = try Syscall.run("open", subject: directory) {
                open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            }
            defer { Syscall.close(directoryFD) }
            try Syscall.run("fsync", subject: directory) { fsync(directoryFD) }
        }
    }
}

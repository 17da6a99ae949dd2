import FontRegJSON
import FontRegSystem

/// Registrations made with `persist`, kept in `registrations.json` in the state directory.
///
/// Every change is written with ``AtomicFile`` (a temporary file of its own, created with
/// `O_EXCL`, flushed, renamed over the old file, then the directory flushed) before the caller is
/// answered: an acknowledged registration survives a crash or `kill -9`. The file is read as a
/// ``StateFile``: never through a link, never blocking, never larger than ``maximumSize``.
package struct RegistrationStore: Sendable {
    /// The state directory.
    package let directory: String

    /// A store in the state directory `directory`.
    package init(directory: String) {
        self.directory = directory
    }

    /// The state file's name.
    package static let name = "registrations.json"

    /// The state file's path.
    package var path: String { directory + "/" + Self.name }

    /// The state file, read and moved aside safely.
    private var file: StateFile { StateFile(directory: directory, name: Self.name) }

    /// The largest state file read or written: a few thousand paths take kilobytes; anything this large is not ours.
    static let maximumSize = StateFile.maximumSize

    /// What ``loadMovingCorruptAside()`` found.
    package struct Loaded: Sendable {
        /// The persisted paths (none after a problem).
        package let paths: [String]
        /// Where a corrupt file was moved, and the older copies removed, when it was.
        package let movedAside: StateFile.MovedAside?
        /// Why the file was not read and left where it is (a link, a FIFO…), when it was not.
        package let refused: PersistenceError?
    }

    /// Reads the persisted paths, moving a corrupt state file aside instead of failing.
    ///
    /// A file this version cannot read is moved to `registrations.json.corrupt-<UTC time>-<n>`, a
    /// name of its own (see ``StateFile/moveAside()``), and the daemon starts with no persisted
    /// registrations. A link, FIFO or other non-file at the name is not read and not moved.
    /// - Returns: the paths, and what was moved aside or refused.
    /// - Throws: ``PersistenceError/system(_:)`` when the file cannot be read or moved aside.
    package func loadMovingCorruptAside() throws(PersistenceError) -> Loaded {
        do {
            return Loaded(paths: try load(), movedAside: nil, refused: nil)
        } catch {
            switch error {
            case .corrupt: return Loaded(paths: [], movedAside: try file.moveAside(), refused: nil)
            case .notRegularFile: return Loaded(paths: [], movedAside: nil, refused: error)
            case .system, .tooLarge: throw error
            }
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
        guard let bytes = try file.read() else { return nil }
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
    /// - Throws: ``PersistenceError/tooLarge(path:size:limit:)`` for a file start-up would not read,
    ///   ``PersistenceError/system(_:)``; the old file is then left as it was.
    package func save(_ paths: [String], owners: [String: UInt32] = [:]) throws(PersistenceError) {
        var members: [String: JSONValue] = ["version": 1, "paths": .array(paths.map { .string($0) })]
        let kept = paths.compactMap { path in owners[path].map { (path, JSONValue.int(Int($0))) } }
        if !kept.isEmpty { members["owners"] = .object(Dictionary(kept) { first, _ in first }) }
        let value = JSONValue.object(members)
        var bytes = Array(value.prettyPrinted().utf8)
        bytes.append(0x0A)
        try file.checkSize(bytes)
        do {
            try Syscall.makeDirectory(directory, mode: 0o755)
            try AtomicFile.write(bytes, directory: directory, name: Self.name, mode: 0o644)
        } catch {
            throw .system(error)
        }
    }
}

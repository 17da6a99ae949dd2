import FontRegJSON
import FontRegSystem

/// ``PlatformState`` in `platform.json` of the state directory, written durably before a reply.
///
/// The file is mode 0600: it names users' own font paths, which other users must not read.
package struct PlatformStateStore: Sendable {
    /// The state directory.
    package let directory: String
    /// The file's name in it.
    package static let name = "platform.json"

    package init(directory: String) {
        self.directory = directory
    }

    /// The state file's path.
    package var path: String { directory + "/" + Self.name }

    /// The state file, read and moved aside safely.
    private var file: StateFile { StateFile(directory: directory, name: Self.name) }

    /// What ``load()`` found besides the state.
    package enum Problem: Sendable, Equatable {
        /// The file could not be parsed and was moved aside (older copies beyond the kept ones removed).
        case movedAside(StateFile.MovedAside)
        /// The file was not read and was left where it is: a link, a FIFO, too large to move, unreadable.
        case notRead(PersistenceError)
    }

    /// Reads the state; an empty state when the file does not exist yet. A file this version
    /// cannot read is moved aside to a name of its own (``StateFile/moveAside()``), kept for the
    /// operator; a link, FIFO or other non-file is neither read nor moved.
    ///
    /// - Returns: the state, and the problem found, if there was one.
    package func load() -> (state: PlatformState, problem: Problem?) {
        let bytes: [UInt8]?
        do {
            bytes = try file.read()
        } catch {
            guard case .corrupt = error else { return (PlatformState(), .notRead(error)) }
            return Self.movingAside(file)
        }
        guard let bytes else { return (PlatformState(), nil) }
        if let value = try? JSONParser.parse(bytes), let state = PlatformState(value) { return (state, nil) }
        return Self.movingAside(file)
    }

    /// An empty state after moving `file` aside.
    private static func movingAside(_ file: StateFile) -> (state: PlatformState, problem: Problem?) {
        do {
            return (PlatformState(), .movedAside(try file.moveAside()))
        } catch {
            return (PlatformState(), .notRead(error))
        }
    }

    /// Replaces the state, durably (see ``AtomicFile``).
    ///
    /// - Throws: ``PersistenceError/tooLarge(path:size:limit:)`` for a file start-up would not read,
    ///   ``PersistenceError/system(_:)``; the old file is then left as it was.
    package func save(_ state: PlatformState) throws(PersistenceError) {
        var bytes = Array(state.jsonValue.prettyPrinted().utf8)
        bytes.append(0x0A)
        try file.checkSize(bytes)
        do {
            try Syscall.makeDirectory(directory, mode: 0o755)
            try AtomicFile.write(bytes, directory: directory, name: Self.name, mode: 0o600)
        } catch {
            throw .system(error)
        }
    }
}

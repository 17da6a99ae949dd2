import FontRegCore
import FontRegSystem
import Synchronization

/// The daemon's published snapshot as a client sees it: found beside the socket, trusted only
/// when the daemon (or root) wrote it, and re-mapped when the daemon has replaced it.
///
/// The daemon writes `<socket>.snapshot` after every change and marks the file it replaced, so
/// ``current()`` costs one load from the mapping while nothing changes. A file that is missing
/// means "ask the socket" (``Unavailable/absent``); a file that is not to be trusted or does not
/// validate is reported, so that the caller can warn before it asks the socket.
///
/// The file is opened with ``MappedSnapshot/Checks/atAccess``: its header and the places of its
/// tables are checked here, each record when an answer first reads it, so a client's run costs
/// the pages its answer touches, not the file's size. Damage found at access is in
/// ``MappedSnapshot/damage`` after the answer; the caller then reports it and asks the socket.
public final class RegistrySnapshot: Sendable {
    /// Why the snapshot cannot answer.
    public enum Unavailable: Error, Sendable, Equatable, CustomStringConvertible {
        /// No snapshot beside the socket (an older daemon, or a stopped one): ask the socket, say nothing.
        case absent
        /// A file is there but must not be trusted (its owner or mode), or cannot be opened.
        case refused(String)
        /// A trusted file is there but does not validate: the kind of damage is in the `SnapshotError`.
        case invalid(SnapshotError)

        /// What a person reads in the warning.
        public var description: String {
            switch self {
            case .absent: "no snapshot is published beside the socket"
            case .refused(let reason): reason
            case .invalid(let error): error.description
            }
        }
    }

    /// The snapshot path that follows from a socket path (as the daemon publishes it).
    ///
    /// - Parameter socketPath: the daemon's socket.
    /// - Returns: `socketPath` with `.snapshot` appended.
    public static func path(forSocket socketPath: String) -> String { socketPath + ".snapshot" }

    /// The socket the snapshot belongs to.
    public let socketPath: String
    /// The snapshot's path.
    public let path: String
    /// The mapping in use.
    private let mapped: Mutex<MappedSnapshot>

    /// Maps and checks the snapshot beside `socketPath`.
    ///
    /// - Parameter socketPath: the daemon's socket.
    /// - Throws: ``Unavailable``.
    public init(socketPath: String) throws(Unavailable) {
        self.socketPath = socketPath
        path = Self.path(forSocket: socketPath)
        mapped = Mutex(try Self.open(path, socketPath: socketPath))
    }

    /// The snapshot to answer from: the mapping, or the file that replaced it.
    ///
    /// - Returns: a mapping of the daemon's current snapshot.
    /// - Throws: ``Unavailable`` when the replacement is missing (the daemon stopped) or refused.
    public func current() throws(Unavailable) -> MappedSnapshot {
        let snapshot = mapped.withLock { $0 }
        if snapshot.isCurrent { return snapshot }
        let replacement = try Self.open(path, socketPath: socketPath)
        mapped.withLock { $0 = replacement }
        return replacement
    }

    /// Maps the file at `path` if it is to be trusted: a regular file owned by root or by the
    /// socket's owner (the daemon's user), writable by nobody else, that validates.
    static func open(_ path: String, socketPath: String) throws(Unavailable) -> MappedSnapshot {
        // Opened once: the descriptor that told "missing" from "refused" is the one mapped.
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, as: .file)
        } catch {
            // Missing, or closed to this user as the socket is: nothing to say, the socket decides.
            if [.noSuchFileOrDirectory, .notDirectory, .permissionDenied].contains(error.errno) { throw .absent }
            throw .refused("cannot open \(path): \(error)")
        }
        let snapshot: MappedSnapshot
        do {
            // The header and the tables' places now; each record when an answer reads it.
            snapshot = try MappedSnapshot(file: file, path: path, checks: .atAccess)
        } catch {
            throw .invalid(error)
        }
        guard let status = snapshot.fileStatus else { throw .refused("\(path) is not a file") }
        let daemon = socketOwner(socketPath)
        guard status.owner == 0 || status.owner == daemon else {
            throw .refused(
                "\(path) is owned by uid \(status.owner), neither root nor the daemon's user (uid \(daemon.map(String.init) ?? "unknown")); it is not trusted"
            )
        }
        guard status.permissions & 0o022 == 0 else {
            throw .refused(
                "\(path) is writable by others (mode \(String(status.permissions, radix: 8))); it is not trusted")
        }
        return snapshot
    }

    /// The uid that owns the socket, or `nil` when it cannot be examined.
    static func socketOwner(_ socketPath: String) -> UInt32? {
        let (directory, name) = split(socketPath)
        return try? FileDescriptor.open(directory, as: .directory).statusOfEntryFollowingLinks(name).owner
    }

    /// A path's directory and last component.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }
}

import FontRegCore
import FontRegSystem

/// Why persisted registrations could not be read or written.
package enum PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call on the state file or directory failed.
    case system(SystemError)
    /// The state file is not what this version writes.
    case corrupt(path: String, reason: String)
    /// The state file's name holds a symbolic link, a FIFO or another non-file: not read, left in place.
    case notRegularFile(path: String, kind: String)
    /// A change would make the state file larger than start-up reads: refused, nothing written.
    case tooLarge(path: String, size: Int, limit: Int)

    package var description: String {
        switch self {
        case .system(let error):
            return
                "cannot save registrations: \(error); check that the state directory exists and is writable (StateDirectory= under systemd)"
        case .corrupt(let path, let reason):
            return
                "\(path) is not a fontreg state file (\(reason)); move it away to start with no persisted registrations"
        case .notRegularFile(let path, let kind):
            return
                "\(path) is \(kind), not a regular file: it was not read and was left in place; remove it (the "
                + "daemon writes a regular file there at the next change) or put the state file itself there"
        case .tooLarge(let path, let size, let limit):
            return
                "the change would make \(path) \(size) bytes, larger than the \(limit >> 20) MiB limit the daemon "
                + "reads at start; nothing was changed: unregister or unpersist some paths first"
        }
    }

    /// The kind of problem `GetStatus` reports for a state file this error kept from being read.
    package var problemKind: ScanProblem.Kind {
        switch self {
        case .system: .unreadable
        case .corrupt: .other
        case .notRegularFile: .notRegularFile
        case .tooLarge: .tooLarge
        }
    }

    /// The path involved, for error replies.
    package var path: String {
        switch self {
        case .system(let error): error.subject ?? ""
        case .corrupt(let path, _), .notRegularFile(let path, _), .tooLarge(let path, _, _): path
        }
    }
}

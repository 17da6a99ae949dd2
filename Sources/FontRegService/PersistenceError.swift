import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

/// Why persisted registrations could not be read or written.
package enum PersistenceError: Error, Sendable, CustomStringConvertible {
    /// A system call on the state file or directory failed.
    case system(SystemError)
    /// The state file is not what this version writes.
    case corrupt(path: String, reason: String)

    package var description: String {
        switch self {
        case .system(let error):
            return
                "cannot save registrations: \(error); check that the state directory exists and is writable (StateDirectory= under systemd)"
        case .corrupt(let path, let reason):
            return
                "\(path) is not a fontregd state file (\(reason)); move it away to start with no persisted registrations"
        }
    }

    /// The path involved, for error replies.
    package var path: String {
        switch self {
        case .system(let error): error.subject ?? ""
        case .corrupt(let path, _): path
        }
    }
}

import FontRegJSON
import FontRegSystem

/// Why a change to the registry was refused.
public enum RegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not exist.
    case fileNotFound(path: String)
    /// The path is already registered; rescan re-reads it.
    case alreadyRegistered(path: String)
    /// The path is not one of the registered directories or files.
    case notRegistered(path: String)
    /// A single file that is not a usable font, and why.
    case invalidFontData(path: String, reason: String)
    /// The registry may not read the path.
    case permissionDenied(path: String)

    /// What went wrong and what to do about it, for a person.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "\(path): no such file or directory. Check the path; it must exist where the registry runs."
        case .alreadyRegistered(let path):
            "\(path) is already registered. Use rescan to re-read it after a change."
        case .notRegistered(let path):
            "\(path) is not registered. List the registered paths with `fontresolve status`."
        case .invalidFontData(let path, let reason):
            "\(path) is not a usable font: \(reason)."
        case .permissionDenied(let path):
            "\(path): permission denied. Make the file readable by the registry's user."
        }
    }
}

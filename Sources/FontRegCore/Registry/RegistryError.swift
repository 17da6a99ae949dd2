/// Why a change to the registry was refused.
public enum RegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not exist.
    case fileNotFound(path: String)
    /// The path is registered, or lies inside a registered directory (`within`).
    case alreadyRegistered(path: String, within: String? = nil)
    /// The path is not one of the registered directories or files.
    case notRegistered(path: String)
    /// A single file that is not a usable font, and why.
    case invalidFontData(path: String, reason: String)
    /// The registry may not read the path.
    case permissionDenied(path: String)

    /// What went wrong, for a person; what to do where a path must change.
    ///
    /// It names no program: which command to run next is the client's advice to give
    /// (`fontresolve` adds it), since an app that embeds the registry has no such command.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "\(path): no such file or directory. Check the path; it must exist where the registry runs."
        case .alreadyRegistered(let path, nil):
            "\(path) is already registered: its fonts are served, and read again when its files change."
        case .alreadyRegistered(let path, let within?):
            "\(path) is inside the registered directory \(within), whose fonts are served already (and read again when they change). Register it on its own only after unregistering \(within)."
        case .notRegistered(let path):
            "\(path) is not registered."
        case .invalidFontData(let path, let reason):
            "\(path) is not a usable font: \(reason)."
        case .permissionDenied(let path):
            "\(path): permission denied. Make the file readable by the registry's user."
        }
    }
}

import Varlink

extension RegistryService {
    /// Whose change a rescan of the watched root `path` is (issue 24): the user who registered
    /// it (`paced` unless an administrator), or the server's own (`uid` `nil`) for configured
    /// directories and administrators' registrations; `nil` when `path` is no longer registered
    /// (a folder unregistered stays watched, and its events rescan nothing).
    package func watchedRootOwner(_ path: String, registered: Set<String>) -> (uid: UInt32?, paced: Bool)? {
        guard registered.contains(path) else { return nil }
        guard let record = platform.record(for: path), record.owner != 0 else { return (nil, false) }
        let paced = pacesChanges(of: PeerCredentials(pid: 0, uid: record.owner, gid: .max))
        return paced ? (record.owner, true) : (nil, false)
    }
}

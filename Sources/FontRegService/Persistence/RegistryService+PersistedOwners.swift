import FontRegCore
import Synchronization

/// The owners of administrators' persistent registrations, kept in `registrations.json` beside
/// the paths so that `GetStatus` still names who registered them after a restart (issue 15).
extension RegistryService {
    /// The registering uid of each of `paths` that has a record (paths persisted by an earlier
    /// version have none and are left out: they stay root's).
    func persistedOwners(_ paths: [String]) -> [String: UInt32] {
        var owners: [String: UInt32] = [:]
        for path in paths {
            if let record = platform.record(for: path) { owners[path] = record.owner }
        }
        return owners
    }

    /// Records the owner of each persisted path registered at start that has none yet, from the
    /// state file; a path the file names no owner for (an old file) stays root's, as before.
    func restorePersistedOwners() {
        let owners = store.loadOwners()
        guard !owners.isEmpty else { return }
        let registered = Set(registry.registeredPaths)
        let records = persisted.withLock { $0 }.compactMap { path -> RegistrationRecord? in
            guard let owner = owners[path], registered.contains(path), platform.record(for: path) == nil else {
                return nil
            }
            return RegistrationRecord(path: path, owner: owner, scope: .persistent, isPrivate: false)
        }
        platform.add(records)
    }
}

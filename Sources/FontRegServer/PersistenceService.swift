import Dispatch
import FontRegService
import FontRegSystem
import Synchronization

/// The registrations kept across restarts, as a service: loaded first at start, so that the
/// index includes them, and stopped last, after the server has finished the calls that change them.
///
/// Each `Register` or `Unregister` writes the store durably before it replies, so there is
/// nothing left to write at stop; stopping last is what guarantees no call still writes.
package final class PersistenceService: DaemonService {
    package let name = "persistence"
    /// The state directory's store.
    package let store: RegistrationStore
    private let loaded = Mutex<[String]>([])
    private let aside = Mutex<String?>(nil)

    /// A service over `store`; nothing is read until ``start()``.
    package init(store: RegistrationStore) {
        self.store = store
    }

    /// Loads the persisted registrations; a corrupt state file is moved aside, not fatal.
    ///
    /// - Throws: ``PersistenceError`` when the state file cannot be read or moved aside.
    package func start() throws {
        let (paths, corrupt) = try store.loadMovingCorruptAside()
        loaded.withLock { $0 = paths }
        aside.withLock { $0 = corrupt }
    }

    /// Where a corrupt state file was moved at start, if it was (see ``RegistrationStore/loadMovingCorruptAside()``).
    package var movedAside: String? { aside.withLock { $0 } }

    /// The registrations loaded at start.
    package var persisted: [String] { loaded.withLock { $0 } }

    /// Nothing runs in the background: returns at once.
    package func stop(before deadline: DispatchTime) -> Bool { true }
}

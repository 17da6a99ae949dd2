import Dispatch
import FontRegService
import Synchronization

/// The registrations kept across restarts, as a service: loaded first at start, so that the
/// index includes them, and stopped last, after the server has finished the calls that change them.
///
/// Each `Register` or `Unregister` writes the store durably before it replies, so there is
/// nothing left to write at stop; stopping last is what guarantees no call still writes.
final class PersistenceService: DaemonService {
    package let name = "persistence"
    /// The state directory's store.
    package let store: RegistrationStore
    private let loaded = Mutex<[String]>([])
    private let found = Mutex<(movedAside: StateFile.MovedAside?, refused: PersistenceError?)>((nil, nil))

    /// A service over `store`; nothing is read until ``start()``.
    package init(store: RegistrationStore) {
        self.store = store
    }

    /// Loads the persisted registrations; a corrupt state file is moved aside, not fatal.
    ///
    /// - Throws: ``PersistenceError`` when the state file cannot be read or moved aside.
    package func start() throws {
        let result = try store.loadMovingCorruptAside()
        loaded.withLock { $0 = result.paths }
        found.withLock { $0 = (result.movedAside, result.refused) }
    }

    /// Where a corrupt state file was moved at start, if it was (see ``RegistrationStore/loadMovingCorruptAside()``).
    package var movedAside: StateFile.MovedAside? { found.withLock { $0.movedAside } }

    /// Why the state file was not read at start (a link, a FIFO…; left in place), if it was not.
    package var refused: PersistenceError? { found.withLock { $0.refused } }

    /// The registrations loaded at start.
    package var persisted: [String] { loaded.withLock { $0 } }

    /// Nothing runs in the background: returns at once.
    package func stop(before deadline: DispatchTime) -> Bool { true }
}

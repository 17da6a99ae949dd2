import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Synchronization
import Varlink

/// Issue 24: how much of the persisted state one user may hold.
extension RegistryService {
    /// Refuses a change to the persisted state that takes `peer` past their budget
    /// (``PlatformSettings/maximumPersistedEntriesPerUser``, ``PlatformSettings/maximumPersistedBytesPerUser``).
    ///
    /// Administrators are not limited. A change that does not grow what the user holds passes
    /// even when the user is over a budget lowered since (so that they can always remove).
    /// - Parameters:
    ///   - old: the state before the change.
    ///   - new: the state after it.
    ///   - peer: who asks.
    /// - Throws: `PersistedStateLimitReached` naming the setting, its value and what the user would hold.
    func checkPersistedBudget(old: PlatformState, new: PlatformState, peer: PeerCredentials) throws(VarlinkError) {
        guard !isAdministrator(peer) else { return }
        let platform = settings.withLock { $0.platform }
        let before = PersistedUsage(of: peer.uid, in: old)
        let after = PersistedUsage(of: peer.uid, in: new)
        let limits: [(setting: String, maximum: Int, before: Int, after: Int)] = [
            ("max-persisted-per-user", platform.maximumPersistedEntriesPerUser, before.entries, after.entries),
            ("max-persisted-bytes-per-user", platform.maximumPersistedBytesPerUser, before.bytes, after.bytes),
        ]
        for limit in limits where limit.after > limit.maximum && limit.after > limit.before {
            logger.warning(
                "refused a change of the persisted state from \(peer): \(limit.after) over \(limit.setting) "
                    + "\(limit.maximum)")
            throw VarlinkError(
                RegistryInterface.ErrorName.persistedStateLimitReached,
                [
                    "setting": .string(limit.setting), "maximum": .int(limit.maximum),
                    "requested": .int(limit.after),
                ])
        }
    }
}

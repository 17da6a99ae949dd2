import Varlink

/// Who may change the registry: peers whose uid or primary gid the configuration lists.
///
/// Queries are open to every local user; `Register`, `Unregister` and `Rescan` are not.
package struct AccessPolicy: Sendable, Hashable {
    /// Uids allowed to change the registry (root by default).
    package var allowedUIDs: Set<UInt32>
    /// Gids allowed to change the registry (none by default).
    package var allowedGIDs: Set<UInt32>

    package init(allowedUIDs: Set<UInt32> = [0], allowedGIDs: Set<UInt32> = []) {
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
    }

    /// Whether `peer` may change the registry.
    func mayChangeRegistry(_ peer: PeerCredentials) -> Bool {
        allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid)
    }
}

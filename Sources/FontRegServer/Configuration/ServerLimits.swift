/// The limits that keep one client from taking more than its share of the daemon.
package struct ServerLimits: Sendable, Hashable {
    /// The longest message accepted, in bytes; a longer one gets `MessageTooLarge` and the connection is closed.
    package var maximumMessageSize: Int
    /// The most connections served at once; one more gets `TooManyConnections` and is closed.
    package var maximumConnections: Int
    /// Seconds a connection may stay silent with no call in progress, or take to send one message,
    /// before it is closed; 0 disables.
    var idleTimeout: Double
    /// The most connections one user (uid) may hold; root, ``privilegedUIDs`` and members of
    /// ``privilegedGIDs`` are not bound by it.
    var maximumConnectionsPerUID: Int
    /// Uids that may use the last slots of ``maximumConnections`` and are not bound by the
    /// per-user share: root and the uids allowed to change the registry.
    package var privilegedUIDs: Set<UInt32>
    /// Primary gids whose members share the administrators' reserve and are not bound by the
    /// per-user share: the groups allowed to change the registry (`allow-gid`).
    package var privilegedGIDs: Set<UInt32> = []
    /// Bytes of unsent replies a connection may hold before the daemon stops reading from it
    /// (or, for a `Monitor` stream that is not read, closes it).
    var maximumOutputBuffer: Int

    /// The limits; every one has the documented default.
    package init(
        maximumMessageSize: Int = 1 << 20, maximumConnections: Int = 1024, idleTimeout: Double = 300,
        maximumOutputBuffer: Int = 16 << 20, maximumConnectionsPerUID: Int = 128, privilegedUIDs: Set<UInt32> = [0]
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerUID = maximumConnectionsPerUID
        self.privilegedUIDs = privilegedUIDs
        self.idleTimeout = idleTimeout
        self.maximumOutputBuffer = maximumOutputBuffer
    }
}

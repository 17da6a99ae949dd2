/// What the registry's own index file holds after the public part: what proves the index
/// current at a warm start, and the per-file records a later rescan checks files against.
struct SnapshotRegistryPart: Sendable {
    /// Every indexed file with its identity, size, modification time and faces.
    var files: [ScannedFile]
    /// Every directory the scan walked and every registered root.
    var directories: [DirectoryStamp]
    /// The files that could not be used.
    var problems: [ScanProblem]
    /// The configuration stamp (``FontRegistry`` computes it): a different one means another index.
    var stamp: UInt64
}

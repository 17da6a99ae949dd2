/// What the last scan of one registered root found, kept so that a change of other roots
/// reuses it instead of walking this root again (issue 24: a user's `Register` rescanned every
/// other user's roots).
///
/// Kept current by whatever rescans the root: a change that registers it, a watcher's rescan of
/// the roots whose folders changed, and an explicit `Rescan`, which scans every root again.
struct RootScan {
    /// The root's files and problems in the order its walk met them, before files reached by
    /// an earlier root too are left out (that depends on the other roots, and is done when the
    /// roots' scans are put together).
    var entries: [ScanWalk.Entry]
    /// The directories the walk stamped (``DirectoryStamp``), in order.
    var directories: [DirectoryStamp]
    /// The files of this root the scanner's cache holds afterwards, by path.
    var files: [String: ScannedFile]
    /// The confinement the root was scanned with: a root scanned with another is scanned again.
    var confinement: [String]?
    /// The owner its files had to belong to (issue 15).
    var owner: UInt32?
}

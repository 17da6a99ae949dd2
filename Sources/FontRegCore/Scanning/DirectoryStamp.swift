import FontRegSystem

/// What a scan saw of a directory it walked (or of a registered root): the `stat` fields that
/// change when an entry is added, removed or renamed in it.
///
/// A warm start compares each recorded stamp with one `stat` of its path, the way fontconfig
/// trusts a directory's modification time: an unchanged directory is not listed again and none
/// of its files is examined. A file rewritten in place changes no directory; `Rescan` and the
/// watcher, which examine every file, pick it up.
package struct DirectoryStamp: Sendable, Hashable {
    /// The path the scan reached it by.
    package let path: String
    /// The device it lives on.
    package let device: UInt64
    /// Its inode on that device.
    package let inode: UInt64
    /// Its size in bytes.
    package let size: Int64
    /// Its modification time, in nanoseconds since the epoch.
    package let modified: Int

    /// The stamp of a directory (or root file) from its status.
    init(path: String, status: FileStatus) {
        self.init(
            path: path, device: status.device, inode: status.inode, size: status.size,
            modified: status.modifiedNanoseconds)
    }

    /// A stamp from its fields (read back from an index file).
    init(path: String, device: UInt64, inode: UInt64, size: Int64, modified: Int) {
        self.path = path
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
    }

    /// Whether the path still shows this directory unchanged, with one `stat` (links followed,
    /// as the scan followed them); `nil` when it is, else why not.
    func change() -> String? {
        let status: FileStatus
        do {
            status = try Syscall.status(ofPath: path, followLinks: true)
        } catch {
            return "\(path) cannot be examined (\(error))"
        }
        guard status.device == device && status.inode == inode else { return "\(path) was replaced" }
        guard status.size == size && status.modifiedNanoseconds == modified else { return "\(path) changed" }
        return nil
    }
}

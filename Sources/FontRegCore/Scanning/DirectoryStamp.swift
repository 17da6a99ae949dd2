import FontRegSystem

/// What a scan saw of a directory it walked (or of a registered root file): what proves it
/// unchanged at the next start.
///
/// For a directory, its device and inode and its ``DirectoryContents``: the font files,
/// subdirectories and links in it with each one's `stat` (device, inode, size, modification and
/// status change time). A warm start lists each recorded directory and `fstatat`s those entries;
/// a file a scan never reads (fontconfig's `.uuid`, a `README.txt`) may appear or change in it
/// without a cold rebuild, and a font file rewritten in place is seen. For a root file, its own
/// `stat`.
struct DirectoryStamp: Sendable, Hashable {
    /// The path the scan reached it by.
    package let path: String
    /// The device it lives on.
    package let device: UInt64
    /// Its inode on that device.
    package let inode: UInt64
    /// A root file's size in bytes; a directory's ``DirectoryContents/count``.
    package let size: Int64
    /// A root file's modification time, in nanoseconds since the epoch; a directory's
    /// ``DirectoryContents/hash`` (its bit pattern).
    package let modified: Int

    /// The stamp of a root file from its status.
    init(path: String, status: FileStatus) {
        self.init(
            path: path, device: status.device, inode: status.inode, size: status.size,
            modified: status.modifiedNanoseconds)
    }

    /// The stamp of a directory from its status and the entries a scan reads in it.
    init(path: String, status: FileStatus, contents: DirectoryContents) {
        self.init(
            path: path, device: status.device, inode: status.inode, size: contents.count,
            modified: Int(bitPattern: UInt(contents.hash)))
    }

    /// A stamp from its fields (read back from an index file).
    init(path: String, device: UInt64, inode: UInt64, size: Int64, modified: Int) {
        self.path = path
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
    }

    /// Whether the path still shows this directory (or root file) unchanged, links followed as
    /// the scan followed them: one `stat`, and for a directory its listing and an `fstatat` of
    /// each font file, link and subdirectory in it. `nil` when it is unchanged, else why not.
    ///
    /// - Parameter seen: where to note the status of each regular font file in the directory
    ///   (``SeenFiles``), if anywhere; of no use when the answer is not `nil`.
    func change(noting seen: inout SeenFiles?) -> String? {
        let status: FileStatus
        do {
            status = try Syscall.status(ofPath: path, followLinks: true)
        } catch {
            return "\(path) cannot be examined (\(error))"
        }
        guard status.device == device && status.inode == inode else { return "\(path) was replaced" }
        guard status.kind == .directory else {
            guard status.size == size && status.modifiedNanoseconds == modified else { return "\(path) changed" }
            return nil
        }
        let contents: DirectoryContents
        do {
            contents = DirectoryContents.of(try FileDescriptor.open(path, as: .directory), noting: &seen)
        } catch {
            contents = .unlisted
        }
        guard contents.count == size && Int(bitPattern: UInt(contents.hash)) == modified else {
            return "the font files in \(path) changed"
        }
        return nil
    }

    /// ``change(noting:)``, noting nothing.
    func change() -> String? {
        var none: SeenFiles?
        return change(noting: &none)
    }
}

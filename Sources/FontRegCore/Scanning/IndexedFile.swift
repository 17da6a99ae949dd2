import FontRegSystem

/// An indexed font file as the scanner read it: what a file opened later must still be.
package struct IndexedFile: Sendable, Hashable {
    /// The device it lives on.
    package let device: UInt64
    /// Its inode on that device.
    package let inode: UInt64
    /// Its size in bytes when it was read.
    package let size: Int64

    /// The files of a scan by path.
    static func table(_ files: [ScannedFile]) -> [String: IndexedFile] {
        var table: [String: IndexedFile] = [:]
        table.reserveCapacity(files.count)
        for file in files {
            table[file.path] = IndexedFile(device: file.identity.device, inode: file.identity.inode, size: file.size)
        }
        return table
    }

    /// Whether an opened file's `fstat` shows this very file, unchanged in size.
    package func matches(_ status: FileStatus) -> Bool {
        status.device == device && status.inode == inode && status.size == size
    }
}

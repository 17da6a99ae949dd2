import Glibc

/// What `fstat`/`fstatat` say about a file, in the terms the scanner needs.
package struct FileStatus: Sendable, Hashable {
    /// The kind of file, from the mode's type bits.
    package enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other
    }

    /// The kind of file.
    package let kind: Kind
    /// The device the file lives on.
    package let device: UInt64
    /// The inode number on that device.
    package let inode: UInt64
    /// The size in bytes (for a sparse file, its apparent size).
    package let size: Int64
    /// The modification time in nanoseconds since the epoch.
    package let modifiedNanoseconds: Int
    /// The status change time (`st_ctim`) in nanoseconds since the epoch: it moves whenever the
    /// file's contents or its inode change, even when the modification time is set back.
    package let changedNanoseconds: Int
    /// The owner's uid.
    package let owner: UInt32
    /// The group's gid.
    package let group: UInt32
    /// The permission bits (`st_mode & 07777`).
    package let permissions: UInt32
    /// The number of hard links (names) the file has (`st_nlink`).
    package let linkCount: UInt64

    /// Converts a C `stat`.
    package init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedNanoseconds = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
        changedNanoseconds = info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec
        owner = info.st_uid
        group = info.st_gid
        permissions = UInt32(info.st_mode & 0o7777)
        linkCount = UInt64(info.st_nlink)
    }

    /// Whether `other` is the same file on disk (device and inode).
    func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }
}

import FontRegSystem

/// The font files a warm start's check of the recorded directories saw, each by its device and
/// inode with its status change time (`st_ctime`) as that check's `fstatat` found it (issue 29
/// item 3): the classification of who may read each file, which runs right after, compares its
/// kept answers with these instead of `lstat`ing every file's path a second time.
///
/// Only regular files a scan reads are noted (by a font name ending, in a recorded directory,
/// not through a link). Each was found in a directory whose entries the check proved unchanged
/// since the scan, so a file of the index with this device and inode is still at its path.
package struct SeenFiles: Sendable {
    /// A file's identity.
    private struct Key: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The status change time of each file seen, in nanoseconds since the epoch.
    private var changeTimes: [Key: Int] = [:]

    /// Nothing seen yet.
    package init() {}

    /// The number of files seen.
    package var count: Int { changeTimes.count }

    /// Notes a regular file's status as a directory's check found it.
    mutating func note(_ status: FileStatus) {
        changeTimes[Key(device: status.device, inode: status.inode)] = status.changedNanoseconds
    }

    /// The status change time seen of the file with this device and inode, or `nil` when none was seen.
    package func changeTime(device: UInt64, inode: UInt64) -> Int? {
        changeTimes[Key(device: device, inode: inode)]
    }
}

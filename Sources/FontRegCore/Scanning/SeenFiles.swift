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

    /// The status change time of each file seen, in nanoseconds since the epoch: the files this
    /// value noted first, then those of up to ``maximumParts`` - 1 others it absorbed (each
    /// directory split between two threads brings one, ``DirectoryContents``), kept apart
    /// rather than inserted again. A device and inode is in at most one part: each file was
    /// listed once.
    private var parts: [[Key: Int]] = [[:]]

    /// The most parts kept apart; later ones are inserted into the last.
    static let maximumParts = 4

    /// Nothing seen yet.
    package init() {}

    /// Nothing seen yet, with room for `capacity` files.
    init(capacity: Int) {
        parts[0].reserveCapacity(capacity)
    }

    /// The number of files seen.
    package var count: Int { parts.reduce(0) { $0 + $1.count } }

    /// Makes room for `capacity` more files noted here.
    mutating func reserve(_ capacity: Int) {
        parts[0].reserveCapacity(parts[0].count + capacity)
    }

    /// Notes a regular file's status as a directory's check found it.
    mutating func note(_ status: FileStatus) {
        parts[0][Key(device: status.device, inode: status.inode)] = status.changedNanoseconds
    }

    /// Adds the files another check saw (the other half of a directory's listing).
    mutating func absorb(_ other: SeenFiles) {
        for part in other.parts where !part.isEmpty {
            if parts.count < Self.maximumParts {
                parts.append(part)
            } else {
                parts[parts.count - 1].merge(part) { _, new in new }
            }
        }
    }

    /// The status change time seen of the file with this device and inode, or `nil` when none was seen.
    package func changeTime(device: UInt64, inode: UInt64) -> Int? {
        let key = Key(device: device, inode: inode)
        for part in parts {
            if let time = part[key] { return time }
        }
        return nil
    }
}

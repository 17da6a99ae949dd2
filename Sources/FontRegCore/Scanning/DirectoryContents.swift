import FontRegSystem
import Foundation

/// What a warm start trusts of a directory: the entries a scan reads in it (font files,
/// subdirectories, symbolic links) with each one's `stat`, folded into a count and a hash.
///
/// Files a scan never reads do not count: fontconfig's `.uuid` (2.13 writes one into every font
/// folder it scans), a `README.txt` or any other hidden or non-font file may appear or change
/// without a cold rebuild. A font file added, removed, renamed, replaced or rewritten in place
/// (its device, inode, size, modification or status change time) changes the hash.
struct DirectoryContents: Sendable, Equatable {
    /// The number of entries counted, or -1 for a directory that could not be listed.
    private(set) var count: Int64 = 0
    /// FNV-1a (64-bit) over each counted entry's name, kind and `stat` fields, in name order.
    private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The contents of a directory that could not be listed (a scan reports it as a problem).
    static let unlisted = DirectoryContents(count: -1, hash: 0)

    /// Empty contents, to add entries to in name order.
    init() {}

    /// Contents read back from a ``DirectoryStamp``.
    init(count: Int64, hash: UInt64) {
        self.count = count
        self.hash = hash
    }

    /// Lists an open directory and `fstatat`s the entries a scan would read, as
    /// ``FontScanner`` does while walking it.
    ///
    /// - Parameter directory: the open directory.
    /// - Returns: its contents, or ``unlisted`` when it cannot be listed.
    static func of(_ directory: FileDescriptor) -> DirectoryContents {
        guard let names = try? directory.entryNames() else { return .unlisted }
        var contents = DirectoryContents()
        for name in names where !name.hasPrefix(".") {
            do {
                contents.add(name: name, status: try directory.statusOfEntry(name), in: directory)
            } catch {
                // Gone since the listing, as the scan skips it.
                if error.errno != ENOENT { contents.add(name: name, status: nil, in: directory) }
            }
        }
        return contents
    }

    /// Counts one entry (not hidden) of a directory listed in name order, if a scan reads it.
    ///
    /// - Parameters:
    ///   - name: the entry's name.
    ///   - status: its `fstatat` without following a link, or `nil` when that failed.
    ///   - directory: the directory, to follow a link in.
    mutating func add(name: String, status: FileStatus?, in directory: FileDescriptor) {
        guard let status else {
            mix(name, kind: 0)
            return
        }
        switch status.kind {
        case .directory:
            // Its own entries are its own stamp's; here only which directory it is.
            mix(name, kind: 1)
            mix(status.device)
            mix(status.inode)
        case .symbolicLink:
            mix(name, kind: 2)
            mix(status)
            // A link's target is what the scan reads (operator trees follow links).
            if let target = try? directory.statusOfEntryFollowingLinks(name) { mix(target) }
        default:
            guard FontScanner.hasFontExtension(name) else { return }
            mix(name, kind: 3)
            mix(status)
        }
    }

    /// Mixes in the start of an entry: its name and what kind of entry it is.
    private mutating func mix(_ name: String, kind: UInt8) {
        count += 1
        for byte in name.utf8 { mix(byte: byte) }
        mix(byte: 0)
        mix(byte: kind)
    }

    /// Mixes in the fields that change when a file is replaced or rewritten.
    private mutating func mix(_ status: FileStatus) {
        mix(UInt64(truncatingIfNeeded: status.kind.hashCode))
        mix(status.device)
        mix(status.inode)
        mix(UInt64(bitPattern: status.size))
        mix(UInt64(bitPattern: Int64(status.modifiedNanoseconds)))
        mix(UInt64(bitPattern: Int64(status.changedNanoseconds)))
    }

    /// Mixes in a 64-bit value, byte by byte.
    private mutating func mix(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { mix(byte: UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// One FNV-1a step.
    private mutating func mix(byte: UInt8) {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}

extension FileStatus.Kind {
    /// A stable number for each kind (Swift's `hashValue` is seeded per process).
    fileprivate var hashCode: Int {
        switch self {
        case .regular: 1
        case .directory: 2
        case .symbolicLink: 3
        case .fifo: 4
        case .characterDevice: 5
        case .blockDevice: 6
        case .socket: 7
        case .other: 8
        }
    }
}

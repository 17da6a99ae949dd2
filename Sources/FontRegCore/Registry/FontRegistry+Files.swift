import FontRegSystem
import Foundation

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

// Issue 15 (OpenFace): what the service needs to hand out a face's file.
extension FontRegistry {
    /// The identity the last scan recorded for an indexed file, or `nil` when it is not indexed.
    package func indexedFile(path: String) -> IndexedFile? {
        // Served mapped (a warm start, before any change): the file table answers, in place.
        if case .mapped(let mapped) = index.storage { return mapped.snapshot.indexedFile(path: path) }
        return indexedFiles.withLock { $0[path] }
    }
}

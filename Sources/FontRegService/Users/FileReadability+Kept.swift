import FontRegCore

// Issue 29 item 3: a warm start reuses the kept classification without looking any file up by path.
extension FileReadability {
    /// The restricted files when every answer `kept` holds is reused as it is: the index file's
    /// table (``IndexedFileTable``) and `kept` list the same files in the same order, and each
    /// passes the reuse rules of ``classify(_:files:reusing:)`` — every directory above it shows
    /// its kept fingerprint, the file its own, and the table records the identity answered for —
    /// and `kept` holds no directory those files do not pass through. `nil` when any file or
    /// directory differs in any way: then ``classify(_:files:reusing:)`` decides, file by file.
    ///
    /// This walks the table and `kept` side by side, each path compared in place: no path is
    /// looked up, and only the directories' and the restricted files' paths become `String`s.
    ///
    /// A file the warm start's check of the recorded directories saw (`seen`, right before) is
    /// not `lstat`ed again: that check `fstatat`ed it in its directory and proved the directory's
    /// entries unchanged since the scan, so the file of the table's device and inode is still at
    /// its path, and its status change time is the one seen. Only a file it did not see (a
    /// registered single file) is `lstat`ed by path.
    ///
    /// - Parameters:
    ///   - table: the file table of the index being classified.
    ///   - kept: the classification an earlier run kept (``PersistedReadability``).
    ///   - seen: the font files the warm start's check of the recorded directories saw, when
    ///     this runs right after it (``FontRegistry/takeWarmStartSeenFiles()``).
    /// - Returns: the restricted files, sorted.
    static func reusingWhole(_ table: IndexedFileTable, kept: PersistedReadability, seen: SeenFiles? = nil)
        -> [String]?
    {
        guard table.coversEveryFaceOnce else { return nil }
        var restricted: [String] = []
        var directories: [String: FileFingerprint] = [:]
        var parents: [String: (plain: Bool, unchanged: Bool)] = [:]
        // The parent directory of the file before, by its bytes.
        var lastParent: [UInt8] = []
        var lastAbove = (plain: false, unchanged: false)
        var file = 0
        var visited = 0
        let whole = kept.forEachFile { keptPath, record in
            while file < table.count && !table.hasFaces(file) { file += 1 }
            guard file < table.count else { return false }
            defer { file += 1 }
            visited += 1
            let same = table.withPath(file) { path -> Bool in
                guard RawBytes.equal(path, keptPath) else { return false }
                // Made only where a path is needed: a new parent, an `lstat`, a restricted file.
                func string() -> String { String(decoding: path, as: UTF8.self) }
                let parentLength = path.lastIndex(of: UInt8(ascii: "/")) ?? 0
                let above: (plain: Bool, unchanged: Bool)
                if RawBytes.prefix(path, count: parentLength, equals: lastParent) {
                    above = lastAbove
                } else {
                    let parent = String(decoding: path.prefix(parentLength), as: UTF8.self)
                    if let found = parents[parent] {
                        above = found
                    } else {
                        above = Self.directories(above: string(), into: &directories, earlier: kept.directories)
                        parents[parent] = above
                    }
                    lastParent = Array(path.prefix(parentLength))
                    lastAbove = above
                }
                guard above.plain, above.unchanged else { return false }
                let indexed = table.identity(file)
                guard indexed.device == record.print.device, indexed.inode == record.print.inode else { return false }
                if let seen, let changed = seen.changeTime(device: indexed.device, inode: indexed.inode) {
                    // This start's check of the file's directory saw it, unchanged since the scan.
                    guard changed == record.print.stamp else { return false }
                } else {
                    guard let print = FileFingerprint.file(string()), print == record.print else { return false }
                }
                if !record.isPublic { restricted.append(string()) }
                return true
            }
            return same
        }
        guard whole, visited == kept.fileCount else { return nil }
        // No file of the table left over, and no directory kept that these files do not pass.
        while file < table.count && !table.hasFaces(file) { file += 1 }
        guard file == table.count, directories.count == kept.directories.count else { return nil }
        return restricted.sorted()
    }
}

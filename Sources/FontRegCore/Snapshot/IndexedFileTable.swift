/// The file table of the registry's own mapped index file, read in place: each indexed file's
/// path bytes and recorded identity by position, in the table's byte order of paths.
///
/// A warm start's file-readability check walks it instead of looking every face's file up by
/// path (issue 29 item 3: the `String` of each face's file, and a binary search of this table
/// per file, were a third of a 10,000-file start's classification).
package struct IndexedFileTable {
    private let snapshot: MappedSnapshot

    /// The number of files in the table, those with no face left included.
    package let count: Int

    /// Whether every face of the index is listed under exactly one file of the table, so that
    /// the files with faces (``hasFaces(_:)``) are exactly the files of ``FontIndex/faceFiles``.
    package let coversEveryFaceOnce: Bool

    init(snapshot: MappedSnapshot) {
        self.snapshot = snapshot
        count = snapshot.fileCount
        let reader = snapshot.reader, sections = snapshot.sections
        var seen = [Bool](repeating: false, count: snapshot.faceCount)
        var covered = 0
        var once = true
        for i in 0..<count where once {
            let at = sections.files.offset + i * SnapshotLayout.fileSize
            let first = Int(reader.u32(at + 40)), faces = Int(reader.u32(at + 44))
            guard first <= sections.fileFaces.count, faces <= sections.fileFaces.count - first else {
                once = false
                break
            }
            for f in first..<first + faces {
                let face = Int(reader.u32(sections.fileFaces.offset + f * 4))
                guard face < seen.count, !seen[face] else {
                    once = false
                    break
                }
                seen[face] = true
                covered += 1
            }
        }
        coversEveryFaceOnce = once && covered == seen.count
    }

    /// Whether file `i` has a face in the index.
    package func hasFaces(_ i: Int) -> Bool {
        snapshot.reader.u32(snapshot.sections.files.offset + i * SnapshotLayout.fileSize + 44) != 0
    }

    /// The identity the scan recorded for file `i`.
    package func identity(_ i: Int) -> IndexedFile {
        let reader = snapshot.reader, at = snapshot.sections.files.offset + i * SnapshotLayout.fileSize
        return IndexedFile(
            device: reader.u64(at + 8), inode: reader.u64(at + 16), size: Int64(bitPattern: reader.u64(at + 24)))
    }

    /// Calls `body` with the bytes of file `i`'s path, in place (empty when the record points outside the file).
    package func withPath<Result>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let reader = snapshot.reader, sections = snapshot.sections
        let at = sections.files.offset + i * SnapshotLayout.fileSize
        let ref = SnapshotReader.StringRef(
            offset: sections.registryStrings.offset + Int(reader.u32(at)), count: Int(reader.u32(at + 4)))
        return try withExtendedLifetime(snapshot) { try body(reader.slice(ref)) }
    }
}

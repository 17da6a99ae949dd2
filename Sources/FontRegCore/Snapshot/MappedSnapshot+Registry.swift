/// The registry part of the registry's own index file (see ``SnapshotLayout``), read in place.
extension MappedSnapshot {
    /// Whether the file has a registry part (the registry's own file; a published one has none).
    var hasRegistryPart: Bool { sections.publicEnd < bytes.count }

    /// The configuration stamp the registry recorded.
    var configStamp: UInt64 { sections.configStamp }

    /// Whether some face lost to a duplicate (the groups are in the public part).
    var hasDuplicates: Bool { sections.registryFlags & SnapshotLayout.RegistryFlag.hasDuplicates != 0 }

    /// Whether the problems' kinds are recorded (files of an earlier release have none).
    var hasProblemKinds: Bool { sections.registryFlags & SnapshotLayout.RegistryFlag.problemKinds != 0 }

    /// The duplicate groups (public part), decoded, in the index's order.
    ///
    /// - Parameter winner: which groups to decode, by their winner's position in the face table.
    /// - Returns: the groups whose winner passes.
    func duplicateGroups(where winner: (Int) -> Bool = { _ in true }) -> [DuplicateGroup] {
        var groups: [DuplicateGroup] = []
        let validator = SnapshotValidator(bytes: bytes, path: path)
        for i in 0..<sections.duplicates.count {
            let at = sections.duplicates.offset + i * SnapshotLayout.duplicateSize
            if checksAtAccess {
                do {
                    try validator.checkDuplicateGroup(i, sections)
                } catch {
                    return damaged(error) ?? []
                }
            }
            let position = Int(reader.u32(at + 4))
            guard winner(position) else { continue }
            let kind: DuplicateGroup.Kind = reader.u32(at) == 0 ? .postscriptName : .style
            let first = Int(reader.u32(at + 8)), count = Int(reader.u32(at + 12))
            if checksAtAccess {
                do {
                    for l in first..<first + count { try validator.checkDuplicateLoser(l, sections) }
                } catch {
                    return damaged(error) ?? []
                }
                let faces = [position] + (first..<first + count).map { Int(reader.u32(loserAt($0))) }
                guard faces.allSatisfy(checkedFace) else { return [] }
            }
            let face = decodedFace(position)
            let losers = (first..<first + count).map { l in
                let loserAt = loserAt(l)
                let lost = reader.face(Int(reader.u32(loserAt)), sections: sections)
                return DuplicateGroup.Loser(
                    face: lost,
                    reason: DuplicateGroup.Reason(snapshotCode: reader.u32(loserAt + 4), loser: lost, winner: face))
            }
            groups.append(
                DuplicateGroup(
                    kind: kind, key: DuplicateGroup.key(kind, winner: face), winner: face, losers: losers))
        }
        return groups
    }

    /// The absolute offset of duplicate loser record `l`.
    private func loserAt(_ l: Int) -> Int { sections.duplicateLosers.offset + l * SnapshotLayout.loserSize }

    /// A string of the registry part's own string table.
    private func registryString(at: Int) -> String {
        let offset = Int(reader.u32(at)), count = Int(reader.u32(at + 4))
        return reader.string(.init(offset: sections.registryStrings.offset + offset, count: count))
    }

    /// The number of recorded directories and roots.
    var directoryCount: Int { sections.directories.count }

    /// A recorded directory or root.
    func directory(at i: Int) -> DirectoryStamp {
        let at = sections.directories.offset + i * SnapshotLayout.directorySize
        return DirectoryStamp(
            path: registryString(at: at), device: reader.u64(at + 8), inode: reader.u64(at + 16),
            size: Int64(bitPattern: reader.u64(at + 24)), modified: Int(Int64(bitPattern: reader.u64(at + 32))))
    }

    /// Every recorded directory and root, in the order the scan met them.
    var directories: [DirectoryStamp] { (0..<directoryCount).map(directory(at:)) }

    /// The scan's problems.
    var problems: [ScanProblem] {
        let count = sections.problems.count, kinds = sections.problems.offset + count * SnapshotLayout.problemSize
        return (0..<count).map { i in
            let at = sections.problems.offset + i * SnapshotLayout.problemSize
            let kind = hasProblemKinds ? ScanProblem.Kind(code: bytes[kinds + i]) : nil
            return ScanProblem(path: registryString(at: at), reason: registryString(at: at + 8), kind: kind ?? .other)
        }
    }

    /// The number of indexed files.
    var fileCount: Int { sections.files.count }

    /// The indexed file at a position of the file table (sorted by path bytes).
    private func scannedFile(at i: Int, faces: Bool) -> ScannedFile {
        let at = sections.files.offset + i * SnapshotLayout.fileSize
        var records: [FaceRecord] = []
        if faces {
            let first = Int(reader.u32(at + 40)), count = Int(reader.u32(at + 44))
            records.reserveCapacity(count)
            for f in first..<first + count {
                records.append(reader.face(Int(reader.u32(sections.fileFaces.offset + f * 4)), sections: sections))
            }
        }
        return ScannedFile(
            path: registryString(at: at),
            identity: FileIdentity(device: reader.u64(at + 8), inode: reader.u64(at + 16)),
            size: Int64(bitPattern: reader.u64(at + 24)), modified: Int(Int64(bitPattern: reader.u64(at + 32))),
            faces: records)
    }

    /// Every indexed file with its faces, by path: what a scanner checks files against, so that
    /// an unchanged file is not read again.
    func scannedFiles() -> [String: ScannedFile] {
        var files: [String: ScannedFile] = [:]
        files.reserveCapacity(fileCount)
        for i in 0..<fileCount {
            let file = scannedFile(at: i, faces: true)
            files[file.path] = file
        }
        return files
    }

    /// The identity recorded for an indexed file: a binary search of the sorted file table,
    /// each probe one three-way byte comparison (issue 29 item 3: the generic
    /// `elementsEqual` and `lexicographicallyPrecedes` of each probe were most of a warm start's
    /// file-readability check).
    func indexedFile(path: String) -> IndexedFile? {
        var low = 0, high = fileCount
        var target = path
        return target.withUTF8 { wanted -> IndexedFile? in
            while low < high {
                let middle = (low + high) / 2
                let at = sections.files.offset + middle * SnapshotLayout.fileSize
                let ref = SnapshotReader.StringRef(
                    offset: sections.registryStrings.offset + Int(reader.u32(at)), count: Int(reader.u32(at + 4)))
                let order = Self.compare(reader.slice(ref), wanted)
                if order == 0 {
                    return IndexedFile(
                        device: reader.u64(at + 8), inode: reader.u64(at + 16),
                        size: Int64(bitPattern: reader.u64(at + 24)))
                }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// The byte order of `stored` against `wanted`: negative, zero or positive, a shorter
    /// prefix first (the order the file table is sorted in).
    private static func compare(_ stored: UnsafeRawBufferPointer, _ wanted: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(stored.count, wanted.count)
        if common > 0, let raw = stored.baseAddress, let b = wanted.baseAddress {
            let a = raw.assumingMemoryBound(to: UInt8.self)
            var i = 0
            // Eight bytes at a time while they agree (paths of one tree share long prefixes).
            while i + 8 <= common
                && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    == UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i, as: UInt64.self)
            {
                i += 8
            }
            while i < common {
                if a[i] != b[i] { return Int(a[i]) - Int(b[i]) }
                i += 1
            }
        }
        return stored.count - wanted.count
    }

    /// The public part alone, as clients may read it: the registry part cut off, the generation
    /// set, the checksum recomputed. What the daemon publishes beside its socket.
    ///
    /// - Parameter generation: the generation to record.
    /// - Returns: the bytes of a published snapshot.
    package func publicBytes(generation: UInt64) -> [UInt8] {
        withPublicParts(generation: generation) { head, rest in [UInt8](head) + [UInt8](rest) }
    }

    /// The public part as two pieces to write one after the other: a patched copy of the header
    /// (the generation set, the registry part's fields cleared, the checksum recomputed) and the
    /// rest of the public part where it is mapped, not copied (issue 29 item 2: a copy was a
    /// transient 0.9 MiB of private memory right after READY on the Debian fonts, 50 MB at
    /// 100,000 faces). The pieces are valid only inside `body`.
    ///
    /// - Parameters:
    ///   - generation: the generation to record.
    ///   - body: what to do with the header's copy and the mapped rest.
    package func withPublicParts<Result, Failure: Error>(
        generation: UInt64, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let end = sections.publicEnd
        // The header's blocks (its size rounded up to whole 32-byte blocks of the checksum), or
        // all of a part too short to have more.
        let headerBlocks = (SnapshotLayout.headerSize + 31) / 32 * 32
        let headEnd = end > headerBlocks ? headerBlocks : end
        var head = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[0..<headEnd]))
        let rest = UnsafeRawBufferPointer(rebasing: bytes[headEnd..<end])
        head.withUnsafeMutableBytes { raw in
            typealias H = SnapshotLayout.Header
            raw.storeBytes(of: generation.littleEndian, toByteOffset: H.generation, as: UInt64.self)
            raw.storeBytes(of: UInt64(end).littleEndian, toByteOffset: H.fileSize, as: UInt64.self)
            raw.storeBytes(of: UInt64(0), toByteOffset: H.superseded, as: UInt64.self)
            for field in [H.files, H.fileFaces, H.directories, H.problems, H.registryStrings, H.configStamp] {
                raw.storeBytes(of: UInt64(0), toByteOffset: field, as: UInt64.self)
            }
            raw.storeBytes(of: UInt64(0), toByteOffset: H.registryFlags, as: UInt64.self)
            let sum =
                headEnd == end
                ? SnapshotHash.checksum(UnsafeRawBufferPointer(raw))
                : SnapshotHash.checksum(head: UnsafeRawBufferPointer(raw), rest: rest)
            raw.storeBytes(of: sum.littleEndian, toByteOffset: SnapshotLayout.checksumOffset, as: UInt64.self)
        }
        // `withUnsafeBytes` rethrows untyped: the outcome is carried out as a `Result`; the
        // mapping stays alive while `rest` is read.
        let outcome = withExtendedLifetime(self) {
            head.withUnsafeBytes { head in Swift.Result { () throws(Failure) -> Result in try body(head, rest) } }
        }
        return try outcome.get()
    }
}

import FontRegSystem
import Synchronization

/// A snapshot file read in place: answers the resolver's lookups by reading only the records they need.
///
/// Opening checks the header (magic, version, sizes) and where every table lies. With
/// ``Checks/whole`` (the default) it also checks the checksum and that every offset, length and
/// index in the file stays inside its table, so a corrupt or hostile file is refused with a
/// ``SnapshotError``; with ``Checks/atAccess`` each record is checked the same way when a lookup
/// first reads it, and a record that fails is not used: the lookup answers as if it were
/// absent and ``damage`` holds the error, for the caller to report. Either way a lookup never
/// reads outside the mapping and no value in the file can trap. A family is a ``FamilyEntry``
/// over its record: a resolve reads the stored weights, composed names and matching traits in
/// place and decodes only the face it answers with.
// Safe to share across threads: the bytes are immutable (the superseded mark aside, which is
// only ever read as one aligned word) and the decoded-face cache is behind a Mutex.
public final class MappedSnapshot: @unchecked Sendable {
    /// How much of the file is checked when it is opened.
    public enum Checks: Sendable {
        /// The header, the checksum over the whole file and every record, before any lookup:
        /// the cost grows with the file (the registry's own index file).
        case whole
        /// The header and where each table lies when opened; each record when a lookup first
        /// reads it, so the cost is the pages an answer touches (a client's run over the
        /// published snapshot). The checksum is not read.
        case atAccess
    }

    /// The generation the daemon recorded when it wrote the file.
    public let generation: UInt64
    /// The number of faces.
    public let faceCount: Int
    /// The number of families.
    public let familyCount: Int
    /// The family rules and aliases the daemon resolved with when it wrote the file.
    public let rules: RuleSet

    /// The whole file.
    let bytes: UnsafeRawBufferPointer
    /// Where the file came from, for errors.
    let path: String
    /// Where the tables lie, from validation.
    let sections: SnapshotSections
    /// The text coverage section `ResolveText`'s registry-wide fallback reads in place, or `nil`
    /// when the writer left it out (a file published from an index built in memory).
    package let textCoverage: TextCoverageSection?
    /// What keeps `bytes` alive: the mapping, or an owned copy.
    private let owner: AnyObject
    /// Recently decoded faces, by position, at most ``DecodedFaceCache/defaultByteLimit`` bytes
    /// of them (issue 29: bounded in bytes, not by count): the faces an application asks for
    /// again are not decoded again. Empty until a face is decoded: a snapshot whose faces are
    /// never decoded costs nothing for it.
    private let faceCache = Mutex(DecodedFaceCache())
    /// The status of the file when it was opened (device, inode, owner, mode), for callers that
    /// must decide whether to trust it; `nil` for bytes held in memory.
    package let fileStatus: FileStatus?

    /// Maps and validates the snapshot at `path`.
    ///
    /// - Parameters:
    ///   - path: the snapshot file.
    ///   - checks: what to check before the first lookup (``Checks/whole`` unless told).
    /// - Throws: ``SnapshotError`` when the file cannot be mapped or fails a check.
    public convenience init(path: String, checks: Checks = .whole) throws(SnapshotError) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, as: .file)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        try self.init(file: file, path: path, checks: checks)
    }

    /// Maps and validates the snapshot open at `file` (a caller that has opened the file to tell
    /// "missing" from "refused" maps that descriptor rather than opening the path again).
    ///
    /// - Parameters:
    ///   - file: the snapshot file, open for reading.
    ///   - path: the file's path, for messages.
    ///   - checks: what to check before the first lookup (``Checks/whole`` unless told).
    /// - Throws: ``SnapshotError`` when the file cannot be mapped or fails a check.
    package convenience init(file: FileDescriptor, path: String, checks: Checks = .whole) throws(SnapshotError) {
        let mapping: MappedFile
        let status: FileStatus
        do {
            status = try file.status()
            guard status.kind == .regular else {
                throw SnapshotError.unreadable(path: path, reason: "not a regular file")
            }
            guard status.size >= Int64(SnapshotLayout.headerSize) else {
                throw SnapshotError.truncated(
                    path: path, size: Int(status.size), expected: SnapshotLayout.headerSize)
            }
            guard status.size <= Int64(UInt32.max) else {
                throw SnapshotError.outOfBounds(path: path, what: "the file size")
            }
            mapping = try file.map(count: Int(status.size))
        } catch let error as SnapshotError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        try self.init(
            owner: mapping, bytes: UnsafeRawBufferPointer(start: mapping.base, count: mapping.count), path: path,
            status: status, checks: checks)
    }

    /// Validates snapshot bytes held in memory (tests and the fuzzer); the bytes are copied.
    ///
    /// - Parameters:
    ///   - bytes: the contents of a snapshot file.
    ///   - path: a name for messages.
    ///   - checks: what to check before the first lookup (``Checks/whole`` unless told).
    /// - Throws: ``SnapshotError`` when the bytes fail a check.
    public convenience init(bytes: [UInt8], path: String = "<memory>", checks: Checks = .whole)
        throws(SnapshotError)
    {
        let copy = OwnedBytes(bytes)
        try self.init(owner: copy, bytes: copy.bytes, path: path, status: nil, checks: checks)
    }

    private init(owner: AnyObject, bytes: UnsafeRawBufferPointer, path: String, status: FileStatus?, checks: Checks)
        throws(SnapshotError)
    {
        self.owner = owner
        fileStatus = status
        self.bytes = bytes
        reader = SnapshotReader(bytes: bytes)
        self.path = path
        let validator = SnapshotValidator(bytes: bytes, path: path)
        let sections = checks == .whole ? try validator.validate() : try validator.sections(checksum: false)
        checksAtAccess = checks == .atAccess
        self.sections = sections
        textCoverage = try Self.textCoverage(owner: owner, bytes: bytes, sections: sections, path: path, checks: checks)
        generation = sections.generation
        faceCount = sections.faces.count
        familyCount = sections.families.count
        rules = Self.rules(SnapshotReader(bytes: bytes), sections)
    }

    /// The text coverage section, its header and lists checked (and with ``Checks/whole`` every
    /// position and node), or `nil` when the file has none.
    private static func textCoverage(
        owner: AnyObject, bytes: UnsafeRawBufferPointer, sections: SnapshotSections, path: String, checks: Checks
    ) throws(SnapshotError) -> TextCoverageSection? {
        let table = sections.textCoverage
        guard table.count > 0 else { return nil }
        let section = try TextCoverageSection(
            section: UnsafeRawBufferPointer(rebasing: bytes[table.offset..<table.offset + table.count * 4]),
            owner: owner, familyCount: sections.families.count, path: path)
        if checks == .whole { try section.checkWhole(path: path) }
        return section
    }

    /// The rules stored in the file, read back from their wire form (a rule that does not parse is left out).
    private static func rules(_ reader: SnapshotReader, _ sections: SnapshotSections) -> RuleSet {
        guard sections.rules.count > 0 else { return .empty }
        var rules: [FamilyRule] = []
        for i in 0..<sections.rules.count {
            let at = sections.rules.offset + i * SnapshotLayout.ruleSize
            let source = reader.string(reader.stringRef(at: at))
            if let rule = RuleSet.parseRule(json: reader.string(reader.stringRef(at: at + 8)), source: source) {
                rules.append(rule)
            }
        }
        return RuleSet(rules: rules)
    }

    /// Where a publisher writes the superseded mark (a `UInt64`, little-endian) into a file it has replaced.
    package static let supersededMarkOffset = SnapshotLayout.supersededOffset

    /// Where the generation (a `UInt64`, little-endian) is in a snapshot file's header.
    package static let generationOffset = SnapshotLayout.Header.generation

    /// Whether each record is checked when first read (``Checks/atAccess``).
    let checksAtAccess: Bool
    /// The first record that failed its check at access, if any.
    private let damageFound = Mutex<SnapshotError?>(nil)

    /// The first damage found by a lookup of a snapshot opened with ``Checks/atAccess`` (a record
    /// outside its table, a range that does not hold): the lookups that read it answered as if
    /// the record were absent, so a caller that must give the file's exact answer asks elsewhere
    /// and reports this. Always `nil` with ``Checks/whole``, which refused such a file when opened.
    public var damage: SnapshotError? { damageFound.withLock { $0 } }

    /// Notes damage found at access (the first is kept) and returns `nil`, for the lookup to answer "absent".
    func damaged<T>(_ error: SnapshotError) -> T? {
        damageFound.withLock { if $0 == nil { $0 = error } }
        return nil
    }

    /// Whether the face record at `position` passes its checks (always, after ``Checks/whole``);
    /// a failure is noted in ``damage``.
    func checkedFace(_ position: Int) -> Bool {
        guard position >= 0 && position < faceCount else {
            return damaged(.outOfBounds(path: path, what: "a face's position")) ?? false
        }
        guard checksAtAccess else { return true }
        let validator = SnapshotValidator(bytes: bytes, path: path)
        do {
            try validator.checkFace(position, sections)
            try validator.checkAxisTags(ofFace: position, sections)
            return true
        } catch {
            return damaged(error) ?? false
        }
    }

    /// The family at `position` of the family table, its record and its faces checked
    /// (``Checks/atAccess``), or `nil` with the failure noted in ``damage``.
    private func checkedFamily(_ position: Int) -> FamilyEntry? {
        guard position >= 0 && position < familyCount else {
            return damaged(.outOfBounds(path: path, what: "a family's position"))
        }
        let record = sections.families.offset + position * SnapshotLayout.familySize
        if checksAtAccess {
            do {
                try SnapshotValidator(bytes: bytes, path: path).checkFamily(position, sections)
            } catch {
                return damaged(error)
            }
            let first = Int(reader.u32(record + SnapshotLayout.Family.firstFace))
            let count = Int(reader.u32(record + SnapshotLayout.Family.faceCount))
            for face in first..<first + count where !checkedFace(face) { return nil }
            for slot in 0..<SnapshotLayout.slotCount {
                let at = record + SnapshotLayout.Family.slots + slot * 16
                if reader.u32(at + 8) != 0 && !checkedFace(Int(reader.u32(at + 12))) { return nil }
            }
        }
        return FamilyEntry(
            name: reader.string(reader.stringRef(at: record)), mapped: MappedFamily(snapshot: self, record: record))
    }

    /// The face at a validated position, from the decoded-face cache or decoded now.
    ///
    /// With ``Checks/atAccess`` the positions reaching here are those of checked families and
    /// faces; the decoding stays bounded by its tables whatever the record holds.
    func decodedFace(_ position: Int) -> FaceRecord {
        if let cached = faceCache.withLock({ $0.face(at: position) }) { return cached }
        let face = reader.face(position, sections: sections)
        faceCache.withLock { $0.insert(face, at: position) }
        return face
    }

    /// The bytes the decoded-face cache holds (``DecodedFaceCache/cost(of:)`` summed) and the
    /// number of faces in it (tests).
    package var decodedFaceCacheUse: (bytes: Int, faces: Int) { faceCache.withLock { ($0.bytes, $0.count) } }

    /// Whether the file is still the daemon's current snapshot: the daemon marks a file it has
    /// replaced, so a reader notices a new generation with one load from the mapping.
    public var isCurrent: Bool { reader.u64(SnapshotLayout.supersededOffset) == 0 }

    /// Whether a family's answers can be given from the file exactly as the daemon gives them:
    /// not for a family the file marks hidden (reserved; none yet). A family whose faces won over
    /// duplicates is served: the file holds its duplicate groups, and the trace names the losers.
    ///
    /// - Parameter name: the family name in any spelling.
    /// - Returns: `false` when the daemon must answer for this family.
    package func servesInFull(family name: String) -> Bool {
        guard let flags = (family(named: name)?.mapped as? MappedFamily)?.flags else { return true }
        return flags & SnapshotLayout.FamilyFlag.hidden == 0
    }

    // MARK: Lookups

    /// The family under a normalized key.
    ///
    /// - Parameter key: the normalized family name.
    /// - Returns: the family with its faces, or `nil`.
    public func family(key: FamilyKey) -> FamilyEntry? {
        let target = key.value
        let hash = SnapshotHash.exact(target)
        let found = probe(sections.familyMap, hash: hash) { i in
            let record = sections.families.offset + i * SnapshotLayout.familySize
            return reader.equalBytes(reader.stringRef(at: record + 8), target)
        }
        return found.flatMap(checkedFamily)
    }

    /// The family with this name under its normalized key ("noto-sans" finds "Noto Sans").
    ///
    /// - Parameter name: the family name in any spelling.
    /// - Returns: the family, or `nil`.
    public func family(named name: String) -> FamilyEntry? { family(key: FamilyKey(name)) }

    /// The face with this PostScript name, ignoring case.
    ///
    /// - Parameter postscriptName: the PostScript name, e.g. `Lato-Bold`.
    /// - Returns: the face, or `nil`.
    public func face(postscriptName: String) -> FaceRecord? {
        face(in: sections.postscriptMap, name: postscriptName, field: 0)
    }

    /// The face with this full name, ignoring case.
    ///
    /// - Parameter fullName: the full name, e.g. `Lato Bold`.
    /// - Returns: the face, or `nil`.
    public func face(fullName: String) -> FaceRecord? { face(in: sections.fullNameMap, name: fullName, field: 24) }

    /// The face at a position in the index's order.
    ///
    /// - Parameter position: 0 ..< ``faceCount``.
    /// - Returns: the face, or `nil` outside the range.
    public func face(at position: Int) -> FaceRecord? {
        guard position >= 0 && position < faceCount, checkedFace(position) else { return nil }
        return decodedFace(position)
    }

    /// The family at a position in the index's order (sorted by name).
    ///
    /// - Parameter position: 0 ..< ``familyCount``.
    /// - Returns: the family read in place, or `nil` outside the range.
    public func family(at position: Int) -> FamilyEntry? {
        guard position >= 0 && position < familyCount else { return nil }
        return checkedFamily(position)
    }

    /// Whether the face at a position may be shown to clients (not hidden; see ``SnapshotLayout/Flag/hidden``).
    ///
    /// - Parameter position: 0 ..< ``faceCount``.
    /// - Returns: `false` for a hidden face or a position outside the range.
    package func isListed(at position: Int) -> Bool {
        guard position >= 0 && position < faceCount else { return false }
        let flags = reader.u32(sections.faces.offset + position * SnapshotLayout.faceSize + SnapshotLayout.Face.flags)
        return flags & SnapshotLayout.Flag.hidden == 0
    }

    /// The family names, in the index's order.
    public var familyNames: [String] {
        (0..<familyCount).map {
            reader.string(reader.stringRef(at: sections.families.offset + $0 * SnapshotLayout.familySize))
        }
    }

    /// The registered families closest to a name that is not registered, best first (at most three).
    ///
    /// - Parameter name: the name that was not found.
    /// - Returns: up to three registered family names, as ``FontIndex/suggestions(for:)`` gives them.
    public func suggestions(for name: String) -> [String] {
        // The same bounded search as the index's, so the answers match and the cost does not grow with `name`.
        FamilySuggester(familyNames: familyNames).suggestions(for: name)
    }

    // MARK: Reading

    /// A bounds-checked reader over the bytes.
    let reader: SnapshotReader

    /// The face a name map finds for `name`, comparing the name at `field` of each candidate.
    private func face(in map: SnapshotSections.Table, name: String, field: Int) -> FaceRecord? {
        let found = probe(map, hash: SnapshotHash.caseInsensitive(name)) { i in
            let ref = reader.stringRef(at: sections.faces.offset + i * SnapshotLayout.faceSize + field)
            return reader.equalIgnoringCase(ref, name)
        }
        guard let found, checkedFace(found) else { return nil }
        return decodedFace(found)
    }

    /// Linear probing of a map: the first entry with this hash that `matches`, at most one pass over the slots.
    private func probe(_ map: SnapshotSections.Table, hash: UInt32, matches: (Int) -> Bool) -> Int? {
        let mask = map.count - 1
        var slot = Int(hash) & mask
        for _ in 0..<map.count {
            let at = map.offset + slot * SnapshotLayout.mapSlotSize
            let entry = Int(reader.u32(at + 4))
            if entry == 0 { return nil }
            if reader.u32(at) == hash && matches(entry - 1) { return entry - 1 }
            slot = (slot + 1) & mask
        }
        return nil
    }
}

/// Bytes owned by the snapshot when it was not mapped from a file.
private final class OwnedBytes {
    /// The copy, as the snapshot reads it.
    let bytes: UnsafeRawBufferPointer
    /// The allocation, freed in `deinit`.
    private let storage: UnsafeMutableRawBufferPointer

    /// Copies `source` into an 8-byte-aligned allocation.
    init(_ source: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 8)
        source.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.storage = storage
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<source.count])
    }

    deinit { storage.deallocate() }
}

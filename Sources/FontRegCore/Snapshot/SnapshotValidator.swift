/// Where the tables of a validated snapshot lie.
struct SnapshotSections: Sendable {
    /// A table: the number of records (or map slots) and its absolute offset.
    struct Table: Sendable {
        /// The number of records, slots or bytes.
        let count: Int
        /// The absolute offset of the first one.
        let offset: Int
    }

    /// The generation in the header.
    let generation: UInt64
    /// The face records.
    let faces: Table
    /// The family records.
    let families: Table
    /// The axis records.
    let axes: Table
    /// The PostScript-name map.
    let postscriptMap: Table
    /// The full-name map.
    let fullNameMap: Table
    /// The family-key map.
    let familyMap: Table
    /// The string table (count in bytes).
    let strings: Table
    /// The registered weights of every family and style.
    let weights: Table
    /// The rule records.
    let rules: Table
    /// The coverage values (count in `UInt32`s).
    let coverage: Table
    /// The duplicate groups and their losers.
    let duplicates: Table, duplicateLosers: Table
    /// The text coverage section (count in `UInt32`s; empty when the writer left it out).
    let textCoverage: Table
    /// The size of the public part.
    let publicEnd: Int
    /// The registry part's file records, face positions, directories, problems and strings
    /// (empty tables in a published file).
    let files: Table, fileFaces: Table, directories: Table, problems: Table, registryStrings: Table
    /// The configuration stamp and the registry flags.
    let configStamp: UInt64, registryFlags: UInt32
}

/// Checks a snapshot: header, checksum, and every offset, length and index.
///
/// ``validate()`` checks the whole file before anything reads it: the walk touches each
/// record's integers once and decodes no string, so it costs about as much as the checksum;
/// after it, every read of ``SnapshotReader`` stays inside its table. ``sections()`` checks only
/// the header and where each table lies (constant work); a reader that takes that road checks
/// each record with ``checkFace(_:_:)``, ``checkFamily(_:_:)`` and the duplicate checks when it
/// first reads it (``MappedSnapshot/Checks/atAccess``), so its cost is the records an answer reads.
struct SnapshotValidator {
    /// The whole file.
    let bytes: UnsafeRawBufferPointer
    /// The file's path, for errors.
    let path: String
    /// A reader over the same bytes.
    var reader: SnapshotReader { SnapshotReader(bytes: bytes) }

    /// Checks everything, cheapest first.
    ///
    /// - Returns: where the tables lie.
    /// - Throws: the first ``SnapshotError`` found.
    func validate() throws(SnapshotError) -> SnapshotSections {
        let sections = try self.sections(checksum: true)
        try checkRecords(sections)
        try checkDuplicates(sections)
        try checkRegistry(sections)
        return sections
    }

    /// Checks the header (magic, version, sizes), optionally the checksum, and that every table
    /// lies inside the file and every map's size is a power of two; no record is read.
    ///
    /// - Parameter checksum: whether to hash the whole file against the header's checksum.
    /// - Returns: where the tables lie.
    /// - Throws: the first ``SnapshotError`` found.
    func sections(checksum: Bool) throws(SnapshotError) -> SnapshotSections {
        let header = SnapshotLayout.headerSize
        guard bytes.count >= SnapshotLayout.magic.count,
            bytes.prefix(SnapshotLayout.magic.count).elementsEqual(SnapshotLayout.magic)
        else { throw .notASnapshot(path: path) }
        guard bytes.count >= header else { throw .truncated(path: path, size: bytes.count, expected: header) }
        let version = reader.u32(SnapshotLayout.Header.version)
        guard version == SnapshotLayout.version else {
            throw .versionMismatch(path: path, found: version, expected: SnapshotLayout.version)
        }
        guard reader.u32(SnapshotLayout.Header.headerSize) == UInt32(header) else {
            throw .outOfBounds(path: path, what: "the header size")
        }
        let declared = reader.u64(SnapshotLayout.Header.fileSize)
        guard declared <= UInt64(bytes.count) else {
            throw .truncated(path: path, size: bytes.count, expected: Int(clamping: declared))
        }
        guard declared == UInt64(bytes.count) else { throw .outOfBounds(path: path, what: "the file size") }
        guard !checksum || SnapshotHash.checksum(bytes) == reader.u64(SnapshotLayout.Header.checksum) else {
            throw .checksumMismatch(path: path)
        }
        let publicEnd = reader.u64(SnapshotLayout.Header.publicEnd)
        guard publicEnd >= UInt64(header), publicEnd <= declared else {
            throw .outOfBounds(path: path, what: "the public part's end")
        }
        let end = Int(publicEnd)
        typealias H = SnapshotLayout.Header
        // With problem kinds, a kind byte per problem follows the problem table.
        let kinds = reader.u32(H.registryFlags) & SnapshotLayout.RegistryFlag.problemKinds != 0 ? 1 : 0
        let sections = SnapshotSections(
            generation: reader.u64(SnapshotLayout.Header.generation),
            faces: try table(SnapshotLayout.Header.faces, size: SnapshotLayout.faceSize, "the face table"),
            families: try table(SnapshotLayout.Header.families, size: SnapshotLayout.familySize, "the family table"),
            axes: try table(SnapshotLayout.Header.axes, size: SnapshotLayout.axisSize, "the axis table"),
            postscriptMap: try map(SnapshotLayout.Header.postscriptMap, "the PostScript-name map"),
            fullNameMap: try map(SnapshotLayout.Header.fullNameMap, "the full-name map"),
            familyMap: try map(SnapshotLayout.Header.familyMap, "the family map"),
            strings: try table(SnapshotLayout.Header.strings, size: 1, "the string table"),
            weights: try table(SnapshotLayout.Header.weights, size: 4, "the weight table"),
            rules: try table(SnapshotLayout.Header.rules, size: SnapshotLayout.ruleSize, "the rule table"),
            coverage: try table(H.coverage, size: 4, "the coverage table"),
            duplicates: try table(H.duplicates, size: SnapshotLayout.duplicateSize, "the duplicate groups"),
            duplicateLosers: try table(H.duplicateLosers, size: SnapshotLayout.loserSize, "the duplicate losers"),
            textCoverage: try table(H.textCoverage, size: 4, "the text coverage section"),
            publicEnd: end,
            files: try table(H.files, size: SnapshotLayout.fileSize, "the file table", registry: end),
            fileFaces: try table(H.fileFaces, size: 4, "the file faces", registry: end),
            directories: try table(H.directories, size: SnapshotLayout.directorySize, "the directories", registry: end),
            problems: try table(H.problems, size: SnapshotLayout.problemSize + kinds, "the problems", registry: end),
            registryStrings: try table(H.registryStrings, size: 1, "the registry strings", registry: end),
            configStamp: reader.u64(H.configStamp), registryFlags: reader.u32(H.registryFlags))
        return sections
    }

    /// A table whose count and offset are in the header at `field`, checked to lie inside the file.
    /// A public table lies before the public part's end; a registry table (`registry` is that
    /// end) after it, and is empty in a file that has no registry part.
    private func table(_ field: Int, size: Int, _ what: String, registry: Int? = nil) throws(SnapshotError)
        -> SnapshotSections.Table
    {
        let count = Int(reader.u32(field)), offset = Int(reader.u32(field + 4))
        let start = registry ?? SnapshotLayout.headerSize
        let limit = registry == nil ? Int(reader.u64(SnapshotLayout.Header.publicEnd)) : bytes.count
        if registry != nil && count == 0 { return SnapshotSections.Table(count: 0, offset: start) }
        guard offset >= start, offset + count * size <= limit else {
            throw .outOfBounds(path: path, what: what)
        }
        return SnapshotSections.Table(count: count, offset: offset)
    }

    /// A map's table: a power-of-two number of slots, at least two.
    private func map(_ field: Int, _ what: String) throws(SnapshotError) -> SnapshotSections.Table {
        let table = try table(field, size: SnapshotLayout.mapSlotSize, what)
        guard table.count >= 2, table.count & (table.count - 1) == 0 else {
            throw .outOfBounds(path: path, what: what + "'s size")
        }
        return table
    }

    /// Every duplicate group's kind, winner and losers, and every loser's face and reason.
    private func checkDuplicates(_ s: SnapshotSections) throws(SnapshotError) {
        for i in 0..<s.duplicates.count { try checkDuplicateGroup(i, s) }
        for i in 0..<s.duplicateLosers.count { try checkDuplicateLoser(i, s) }
    }

    /// Duplicate group `i`: its kind, its winner inside the face table, its losers inside theirs.
    func checkDuplicateGroup(_ i: Int, _ s: SnapshotSections) throws(SnapshotError) {
        let at = s.duplicates.offset + i * SnapshotLayout.duplicateSize
        let first = Int(reader.u32(at + 8)), count = Int(reader.u32(at + 12))
        guard reader.u32(at) <= 1, Int(reader.u32(at + 4)) < s.faces.count, first + count <= s.duplicateLosers.count
        else { throw .outOfBounds(path: path, what: "a duplicate group") }
    }

    /// Duplicate loser `i`: its face inside the face table and a known reason.
    func checkDuplicateLoser(_ i: Int, _ s: SnapshotSections) throws(SnapshotError) {
        let at = s.duplicateLosers.offset + i * SnapshotLayout.loserSize
        guard Int(reader.u32(at)) < s.faces.count, reader.u32(at + 4) <= 3 else {
            throw .outOfBounds(path: path, what: "a duplicate loser")
        }
    }

    /// Every string, range and index of every record.
    private func checkRecords(_ s: SnapshotSections) throws(SnapshotError) {
        for i in 0..<s.faces.count { try checkFace(i, s) }
        for i in 0..<s.axes.count { try string(s.axes.offset + i * SnapshotLayout.axisSize, s, "an axis tag") }
        for i in 0..<s.families.count { try checkFamily(i, s) }
        for i in 0..<s.rules.count {
            try string(s.rules.offset + i * SnapshotLayout.ruleSize, s, "a rule's file")
            try string(s.rules.offset + i * SnapshotLayout.ruleSize + 8, s, "a rule")
        }
        try entries(s.postscriptMap, limit: s.faces.count, "the PostScript-name map")
        try entries(s.fullNameMap, limit: s.faces.count, "the full-name map")
        try entries(s.familyMap, limit: s.families.count, "the family map")
    }

    /// Face record `i` (inside the face table): its strings, its axes and coordinates (and their
    /// tags), its coverage and its matching ranges.
    func checkFace(_ i: Int, _ s: SnapshotSections) throws(SnapshotError) {
        typealias F = SnapshotLayout.Face
        let at = s.faces.offset + i * SnapshotLayout.faceSize
        for field in 0..<6 { try string(at + field * 8, s, "a face's name") }
        let first = Int(reader.u32(at + F.firstAxis)), count = Int(reader.u32(at + F.axisCount))
        guard first + count <= s.axes.count else { throw .outOfBounds(path: path, what: "a face's axes") }
        let firstCoordinate = Int(reader.u32(at + F.firstCoordinate))
        let coordinates = Int(reader.u32(at + F.coordinateCount))
        guard firstCoordinate + coordinates <= s.axes.count else {
            throw .outOfBounds(path: path, what: "a face's coordinates")
        }
        // Ranges are built from these: a minimum above its maximum (or a NaN) would trap.
        let firstRange = Int(reader.u32(at + F.firstRange)), rangeValues = Int(reader.u32(at + F.rangeValues))
        guard rangeValues % 2 == 0, firstRange + rangeValues <= s.coverage.count else {
            throw .outOfBounds(path: path, what: "a face's coverage")
        }
        try string(at + F.languages, s, "a face's languages")
        try string(at + F.metricsVariation, s, "a face's metrics variation")
        guard reader.f64(at + F.widthMinimum) <= reader.f64(at + F.widthMaximum),
            reader.f64(at + F.angleMinimum) <= reader.f64(at + F.angleMaximum),
            reader.i32(at + F.weightMinimum) <= reader.i32(at + F.weightMaximum)
        else { throw .outOfBounds(path: path, what: "a face's matching ranges") }
    }

    /// The tags of a face's axes and coordinates (the whole walk checks every axis record at once).
    func checkAxisTags(ofFace i: Int, _ s: SnapshotSections) throws(SnapshotError) {
        typealias F = SnapshotLayout.Face
        let at = s.faces.offset + i * SnapshotLayout.faceSize
        for (firstField, countField) in [(F.firstAxis, F.axisCount), (F.firstCoordinate, F.coordinateCount)] {
            let first = Int(reader.u32(at + firstField)), count = Int(reader.u32(at + countField))
            for axis in first..<first + count {
                try string(s.axes.offset + axis * SnapshotLayout.axisSize, s, "an axis tag")
            }
        }
    }

    /// Family record `i` (inside the family table): its strings, its face range, its slots and its weights.
    func checkFamily(_ i: Int, _ s: SnapshotSections) throws(SnapshotError) {
        typealias M = SnapshotLayout.Family
        let at = s.families.offset + i * SnapshotLayout.familySize
        try string(at + M.name, s, "a family name")
        try string(at + M.key, s, "a family key")
        try string(at + M.ruleFamilyName, s, "a family's default rule")
        try string(at + M.ruleSource, s, "a family's default rule")
        let first = Int(reader.u32(at + M.firstFace)), count = Int(reader.u32(at + M.faceCount))
        guard first + count <= s.faces.count else { throw .outOfBounds(path: path, what: "a family's faces") }
        for slot in 0..<SnapshotLayout.slotCount {
            let slotAt = at + M.slots + slot * 16
            try string(slotAt, s, "a composed name")
            guard reader.u32(slotAt + 8) <= 2, Int(reader.u32(slotAt + 12)) < max(1, s.faces.count) else {
                throw .outOfBounds(path: path, what: "a composed-name slot")
            }
        }
        var weights = Int(reader.u32(at + M.firstWeight))
        for style in 0..<3 { weights += Int(reader.u32(at + M.weightCounts + style * 4)) }
        guard weights <= s.weights.count else { throw .outOfBounds(path: path, what: "a family's weights") }
    }

    /// Every record of the registry part: its strings inside the registry's string table, every
    /// file's faces inside the file-face list, every face position inside the face table.
    private func checkRegistry(_ s: SnapshotSections) throws(SnapshotError) {
        func name(_ at: Int, _ what: String) throws(SnapshotError) {
            let offset = Int(reader.u32(at)), count = Int(reader.u32(at + 4))
            guard offset + count <= s.registryStrings.count else { throw .outOfBounds(path: path, what: what) }
        }
        for i in 0..<s.files.count {
            let at = s.files.offset + i * SnapshotLayout.fileSize
            try name(at, "a file's path")
            guard Int(reader.u32(at + 40)) + Int(reader.u32(at + 44)) <= s.fileFaces.count else {
                throw .outOfBounds(path: path, what: "a file's faces")
            }
        }
        for i in 0..<s.fileFaces.count where Int(reader.u32(s.fileFaces.offset + i * 4)) >= s.faces.count {
            throw .outOfBounds(path: path, what: "a file's face")
        }
        for i in 0..<s.directories.count {
            try name(s.directories.offset + i * SnapshotLayout.directorySize, "a directory's path")
        }
        for i in 0..<s.problems.count {
            try name(s.problems.offset + i * SnapshotLayout.problemSize, "a problem's path")
            try name(s.problems.offset + i * SnapshotLayout.problemSize + 8, "a problem's reason")
        }
    }

    /// A string reference at `at` lies inside the string table.
    private func string(_ at: Int, _ s: SnapshotSections, _ what: String) throws(SnapshotError) {
        let offset = Int(reader.u32(at)), count = Int(reader.u32(at + 4))
        guard offset + count <= s.strings.count else { throw .outOfBounds(path: path, what: what) }
    }

    /// Every map slot names a record of its table (or none).
    private func entries(_ map: SnapshotSections.Table, limit: Int, _ what: String) throws(SnapshotError) {
        for slot in 0..<map.count where Int(reader.u32(map.offset + slot * 8 + 4)) > limit {
            throw .outOfBounds(path: path, what: what)
        }
    }
}

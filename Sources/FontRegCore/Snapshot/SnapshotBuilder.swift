/// The working state of one layout: the sizes of every table are known before the first byte is
/// written, so the records go into one preallocated buffer in one pass over the faces and the
/// families, and the string table is appended at the end.
struct SnapshotBuilder {
    /// The index being laid out.
    let index: FontIndex
    /// The rules stored for clients.
    let rules: RuleSet
    /// What proves the index current at a warm start, for the registry's own file; `nil` for a published file.
    let registry: SnapshotRegistryPart?
    /// The distinct coverages, in the order laid out, and each face's entry among them.
    private var coverages: [CharacterCoverage] = []
    private var coverageOfFace: [Int] = []
    /// The string table so far.
    private var strings: [UInt8] = []
    /// Strings that repeat (family names, styles, formats, axis tags), stored once.
    private var shared: [String: (UInt32, UInt32)] = [:]
    /// The records, preallocated to their final size (the strings follow them).
    private var out: [UInt8] = []
    /// The text coverage section's words (``TextCoverageSection/words(of:)``), empty when left out.
    private var textCoverage: [UInt32] = []

    /// Starts the layout of an index and its rules.
    ///
    /// - Parameters:
    ///   - index: the faces and families.
    ///   - rules: the rules stored for clients.
    ///   - registry: the registry part, for the registry's own index file.
    ///   - textCoverage: whether to lay out the text coverage section (the registry's own file
    ///     always has it: a warm start reads it in place instead of building it).
    init(index: FontIndex, rules: RuleSet, registry: SnapshotRegistryPart? = nil, textCoverage: Bool = false) {
        self.index = index
        self.rules = rules
        self.registry = registry
        faces = index.faces
        if textCoverage || registry != nil { self.textCoverage = TextCoverageSection.words(of: index.families) }
    }

    /// The index's faces, taken once (a mapped index decodes them on each call).
    let faces: [FaceRecord]

    /// Where each table starts, worked out from the counts.
    private struct Plan {
        var faces = 0, families = 0, axes = 0, weights = 0, rules = 0, coverage = 0, duplicates = 0, losers = 0
        var textCoverage = 0
        var duplicateCount = 0, loserCount = 0
        var postscriptMap = 0, fullNameMap = 0, familyMap = 0, strings = 0
        var axisCount = 0, weightCount = 0, coverageCount = 0
        var postscriptSlots = 0, fullNameSlots = 0, familySlots = 0
    }

    /// The file: header, faces, families, axes, weights, rules, the three maps, then the strings.
    mutating func build(generation: UInt64) -> [UInt8] {
        var seen: [CharacterCoverage: Int] = [:]
        coverageOfFace.reserveCapacity(faces.count)
        for face in faces {
            let coverage = face.coverage
            if let known = seen[coverage] {
                coverageOfFace.append(known)
            } else {
                seen[coverage] = coverages.count
                coverageOfFace.append(coverages.count)
                coverages.append(coverage)
            }
        }
        let plan = plan()
        out = [UInt8](repeating: 0, count: plan.strings)
        strings.reserveCapacity(faces.count * 96 + 4096)
        let losers = loserIdentities()
        var notServed = [Bool](repeating: false, count: faces.count)
        writeFaces(plan, faces, losers: losers, notServed: &notServed)
        writeMaps(plan, faces, notServed: notServed)
        writeFamilies(plan, losers: losers)
        writeRules(plan)
        writeDuplicates(plan)
        out.withUnsafeMutableBytes { raw in
            for (i, word) in textCoverage.enumerated() {
                raw.storeBytes(of: word.littleEndian, toByteOffset: plan.textCoverage + i * 4, as: UInt32.self)
            }
        }
        writeHeader(plan, generation: generation)
        out.append(contentsOf: strings)
        put64(SnapshotLayout.Header.publicEnd, UInt64(out.count))
        if let registry { writeRegistry(registry, faces, hasDuplicates: !losers.isEmpty) }
        put64(SnapshotLayout.Header.fileSize, UInt64(out.count))
        SnapshotWriter.reseal(&out)
        return out
    }

    // MARK: Planning

    /// The counts of every table and where each one starts, 8-byte aligned.
    private func plan() -> Plan {
        var plan = Plan()
        for face in faces { plan.axisCount += face.axes.count + face.coordinates.count }
        for coverage in coverages { plan.coverageCount += coverage.ranges.count }
        for entry in index.families {
            for style in FontStyle.allCases { plan.weightCount += entry.registeredWeights(style: style).count }
        }
        plan.postscriptSlots = Self.slots(for: faces.count)
        plan.fullNameSlots = plan.postscriptSlots
        plan.familySlots = Self.slots(for: index.families.count)
        var at = SnapshotLayout.headerSize
        func next(_ size: Int) -> Int {
            let start = (at + 7) & ~7
            at = start + size
            return start
        }
        plan.faces = next(faces.count * SnapshotLayout.faceSize)
        plan.families = next(index.families.count * SnapshotLayout.familySize)
        plan.axes = next(plan.axisCount * SnapshotLayout.axisSize)
        plan.weights = next(plan.weightCount * 4)
        plan.rules = next(rules.rules.count * SnapshotLayout.ruleSize)
        plan.coverage = next(plan.coverageCount * 4)
        plan.duplicateCount = index.duplicates.count
        plan.loserCount = index.duplicates.reduce(0) { $0 + $1.losers.count }
        plan.duplicates = next(plan.duplicateCount * SnapshotLayout.duplicateSize)
        plan.losers = next(plan.loserCount * SnapshotLayout.loserSize)
        plan.textCoverage = next(textCoverage.count * 4)
        plan.postscriptMap = next(plan.postscriptSlots * SnapshotLayout.mapSlotSize)
        plan.fullNameMap = next(plan.fullNameSlots * SnapshotLayout.mapSlotSize)
        plan.familyMap = next(plan.familySlots * SnapshotLayout.mapSlotSize)
        plan.strings = next(0)
        return plan
    }

    /// The number of map slots for `count` entries: at least twice as many, a power of two.
    static func slots(for count: Int) -> Int {
        var slots = 2
        while slots < count * 2 { slots *= 2 }
        return slots
    }

    /// The identities (file and FreeType index) of the duplicates that lost.
    private func loserIdentities() -> Set<String> {
        var losers: Set<String> = []
        for group in index.duplicates {
            for loser in group.losers { losers.insert(FontIndex.identity(loser.face)) }
        }
        return losers
    }

    // MARK: Records

    /// The face table and the axis table.
    private mutating func writeFaces(_ plan: Plan, _ faces: [FaceRecord], losers: Set<String>, notServed: inout [Bool])
    {
        var axis = 0
        // Each distinct coverage once: its first value and its languages, laid out when first met.
        var coverageAt = [(UInt32, UInt32, (UInt32, UInt32))?](repeating: nil, count: coverages.count)
        var value = 0
        for (i, face) in faces.enumerated() {
            let at = plan.faces + i * SnapshotLayout.faceSize
            typealias F = SnapshotLayout.Face
            putString(at + F.postscriptName, unique(face.postscriptName))
            putString(at + F.family, repeated(face.family))
            putString(at + F.subfamily, repeated(face.subfamily))
            putString(at + F.fullName, unique(face.fullName))
            putString(at + F.file, unique(face.file))
            putString(at + F.format, repeated(face.format))
            put32(at + F.weight, UInt32(bitPattern: Int32(truncatingIfNeeded: face.weight)))
            put32(at + F.width, UInt32(bitPattern: Int32(truncatingIfNeeded: face.width)))
            put32(at + F.index, UInt32(bitPattern: Int32(truncatingIfNeeded: face.index)))
            put32(at + F.instance, UInt32(bitPattern: Int32(truncatingIfNeeded: face.instance ?? 0)))
            var flags: UInt32 = 0
            if face.italic { flags |= SnapshotLayout.Flag.italic }
            if face.oblique { flags |= SnapshotLayout.Flag.oblique }
            if face.isColor { flags |= SnapshotLayout.Flag.color }
            if face.instance != nil { flags |= SnapshotLayout.Flag.hasInstance }
            if !losers.isEmpty && losers.contains(FontIndex.identity(face)) {
                flags |= SnapshotLayout.Flag.duplicateLoser
                notServed[i] = true
            }
            put32(at + F.flags, flags)
            put32(at + F.firstAxis, UInt32(axis))
            put32(at + F.axisCount, UInt32(face.axes.count))
            for a in face.axes {
                putAxis(plan.axes + axis * SnapshotLayout.axisSize, a.tag, a.minimum, a.defaultValue, a.maximum)
                axis += 1
            }
            put32(at + F.firstCoordinate, UInt32(axis))
            for c in face.coordinates {
                putAxis(plan.axes + axis * SnapshotLayout.axisSize, c.tag, c.value, c.value, c.value)
                axis += 1
            }
            put64(at + F.fileSize, UInt64(bitPattern: face.fileSize))
            put64(at + F.widthPercent, face.widthPercent.bitPattern)
            put64(at + F.italicAngle, face.italicAngle.bitPattern)
            put64(at + F.fontRevision, face.fontRevision.bitPattern)
            put32(at + F.coordinateCount, UInt32(face.coordinates.count))
            putTraits(at, FaceMatcher.Traits(face))
            let entry = coverageOfFace[i]
            if coverageAt[entry] == nil {
                let coverage = coverages[entry]
                for range in coverage.ranges {
                    put32(plan.coverage + value * 4, range)
                    value += 1
                }
                coverageAt[entry] = (
                    UInt32(value - coverage.ranges.count), UInt32(coverage.ranges.count),
                    repeated(coverage.languages.joined(separator: " "))
                )
            }
            let (first, count, languages) = coverageAt[entry]!
            put32(at + F.firstRange, first)
            put32(at + F.rangeValues, count)
            putString(at + F.languages, languages)
            putMetrics(at, face.metrics)
            putString(at + F.metricsVariation, unique(face.metricsVariation.encoded))
        }
    }

    /// The metrics of the face record at `at`: eleven i32 values
    /// (``SnapshotLayout/Face/metricValues(_:)``), then the `USE_TYPO_METRICS` bit as a u32.
    private mutating func putMetrics(_ at: Int, _ metrics: FaceMetrics) {
        for (n, value) in SnapshotLayout.Face.metricValues(metrics).enumerated() {
            put32(at + SnapshotLayout.Face.metrics + n * 4, UInt32(bitPattern: Int32(truncatingIfNeeded: value)))
        }
        put32(at + SnapshotLayout.Face.useTypoMetrics, metrics.useTypoMetrics ? 1 : 0)
    }

    /// The matching traits of a face record.
    private mutating func putTraits(_ at: Int, _ traits: FaceMatcher.Traits) {
        typealias F = SnapshotLayout.Face
        put64(at + F.widthMinimum, traits.width.lowerBound.bitPattern)
        put64(at + F.widthMaximum, traits.width.upperBound.bitPattern)
        put64(at + F.angleMinimum, traits.angle.lowerBound.bitPattern)
        put64(at + F.angleMaximum, traits.angle.upperBound.bitPattern)
        put32(at + F.weightMinimum, UInt32(bitPattern: Int32(truncatingIfNeeded: traits.weight.lowerBound)))
        put32(at + F.weightMaximum, UInt32(bitPattern: Int32(truncatingIfNeeded: traits.weight.upperBound)))
        var bits: UInt32 = 0
        if traits.upright { bits |= SnapshotLayout.Trait.upright }
        if traits.italic { bits |= SnapshotLayout.Trait.italic }
        if traits.oblique { bits |= SnapshotLayout.Trait.oblique }
        if traits.italicAxis { bits |= SnapshotLayout.Trait.italicAxis }
        put32(at + F.traits, bits)
    }

    /// An axis record.
    private mutating func putAxis(_ at: Int, _ tag: String, _ minimum: Double, _ value: Double, _ maximum: Double) {
        putString(at, repeated(tag))
        put64(at + 8, minimum.bitPattern)
        put64(at + 16, value.bitPattern)
        put64(at + 24, maximum.bitPattern)
    }

    /// The family table, with the composed-name slots, the default rule and the registered weights.
    private mutating func writeFamilies(_ plan: Plan, losers: Set<String>) {
        // A face can lose in more than one group (by PostScript name and by full name): count it once.
        var losersByFamily: [FamilyKey: Int] = [:]
        if !losers.isEmpty {
            var counted: Set<String> = []
            for group in index.duplicates {
                for loser in group.losers where counted.insert(FontIndex.identity(loser.face)).inserted {
                    losersByFamily[FamilyKey(loser.face.family), default: 0] += 1
                }
            }
        }
        var first = 0, weight = 0
        for (i, entry) in index.families.enumerated() {
            typealias M = SnapshotLayout.Family
            let at = plan.families + i * SnapshotLayout.familySize
            let key = FamilyKey(entry.name).value
            let count = entry.faces.count + (losersByFamily[FamilyKey(entry.name)] ?? 0)
            putString(at + M.name, repeated(entry.name))
            putString(at + M.key, unique(key))
            put32(at + M.firstFace, UInt32(first))
            put32(at + M.faceCount, UInt32(count))
            first += count
            // From the computed slots of a built family, or read back from a mapped one's record.
            for s in 0..<SnapshotLayout.slotCount {
                guard let slot = entry.composed(slot: s) else { break }
                let slotAt = at + M.slots + s * 16
                let (name, kind, face): (String, UInt32, Int?)
                switch slot {
                case .missing(let composed): (name, kind, face) = (composed, 0, nil)
                case .found(let composed, _): (name, kind, face) = (composed, 1, postscriptPosition(composed, plan))
                case .misfit(let composed, _): (name, kind, face) = (composed, 2, postscriptPosition(composed, plan))
                }
                // A found name is a face's PostScript name, usually spelled the same: share its bytes.
                if let face, let ref = sameString(name, atFace: face, plan) {
                    putString(slotAt, ref)
                } else {
                    putString(slotAt, unique(name))
                }
                put32(slotAt + 8, face == nil ? 0 : kind)
                put32(slotAt + 12, UInt32(face ?? 0))
            }
            putString(at + M.ruleFamilyName, unique(entry.defaultRule.familyName))
            putString(at + M.ruleSource, unique(entry.defaultRule.source))
            var flags: UInt32 = entry.defaultRule.source == "default rule" ? 0 : SnapshotLayout.FamilyFlag.derivedRoot
            if !entry.duplicates.isEmpty { flags |= SnapshotLayout.FamilyFlag.hasDuplicates }
            put32(at + M.flags, flags)
            put32(at + M.firstWeight, UInt32(weight))
            for (s, style) in FontStyle.allCases.enumerated() {
                let weights = entry.registeredWeights(style: style)
                put32(at + M.weightCounts + s * 4, UInt32(weights.count))
                for w in weights {
                    put32(plan.weights + weight * 4, UInt32(bitPattern: Int32(truncatingIfNeeded: w)))
                    weight += 1
                }
            }
            insert(plan.familyMap, slots: plan.familySlots, hash: SnapshotHash.exact(key), entry: i) { _ in false }
        }
    }

    /// The duplicate groups, in the index's order, each face by its position in the face table.
    private mutating func writeDuplicates(_ plan: Plan) {
        guard plan.duplicateCount > 0 else { return }
        var positions: [FaceRecord: Int] = [:]
        for (i, face) in faces.enumerated() where positions[face] == nil { positions[face] = i }
        var loser = 0
        for (i, group) in index.duplicates.enumerated() {
            let at = plan.duplicates + i * SnapshotLayout.duplicateSize
            put32(at, group.kind == .postscriptName ? 0 : 1)
            put32(at + 4, UInt32(positions[group.winner] ?? 0))
            put32(at + 8, UInt32(loser))
            put32(at + 12, UInt32(group.losers.count))
            for lost in group.losers {
                let loserAt = plan.losers + loser * SnapshotLayout.loserSize
                put32(loserAt, UInt32(positions[lost.face] ?? 0))
                put32(loserAt + 4, lost.reason.snapshotCode)
                loser += 1
            }
        }
    }

    /// The rules, as their rule files state them.
    private mutating func writeRules(_ plan: Plan) {
        for (i, rule) in rules.rules.enumerated() {
            let at = plan.rules + i * SnapshotLayout.ruleSize
            putString(at, repeated(rule.source))
            putString(at + 8, unique(RuleSet.ruleJSON(rule)))
        }
    }

    /// The header: magic, version, generation and every table's count and offset.
    private mutating func writeHeader(_ plan: Plan, generation: UInt64) {
        typealias H = SnapshotLayout.Header
        out.replaceSubrange(0..<SnapshotLayout.magic.count, with: SnapshotLayout.magic)
        put32(H.version, SnapshotLayout.version)
        put32(H.headerSize, UInt32(SnapshotLayout.headerSize))
        put64(H.generation, generation)
        let tables: [(Int, Int, Int)] = [
            (H.faces, faces.count, plan.faces), (H.families, index.families.count, plan.families),
            (H.axes, plan.axisCount, plan.axes), (H.postscriptMap, plan.postscriptSlots, plan.postscriptMap),
            (H.fullNameMap, plan.fullNameSlots, plan.fullNameMap), (H.familyMap, plan.familySlots, plan.familyMap),
            (H.strings, strings.count, plan.strings), (H.weights, plan.weightCount, plan.weights),
            (H.rules, rules.rules.count, plan.rules), (H.coverage, plan.coverageCount, plan.coverage),
            (H.duplicates, plan.duplicateCount, plan.duplicates), (H.duplicateLosers, plan.loserCount, plan.losers),
            (H.textCoverage, textCoverage.count, plan.textCoverage),
        ]
        for (field, count, offset) in tables {
            put32(field, UInt32(count))
            put32(field + 4, UInt32(offset))
        }
    }

    // MARK: Maps

    /// The PostScript-name and full-name maps: the first face with a name wins, as in ``FontIndex``;
    /// faces that are not served take no name.
    private mutating func writeMaps(_ plan: Plan, _ faces: [FaceRecord], notServed: [Bool]) {
        for (i, face) in faces.enumerated() where !notServed[i] {
            let ps = CaseInsensitiveName(face.postscriptName)
            insert(
                plan.postscriptMap, slots: plan.postscriptSlots,
                hash: SnapshotHash.caseInsensitive(face.postscriptName),
                entry: i
            ) { CaseInsensitiveName(faces[$0].postscriptName) == ps }
            let full = CaseInsensitiveName(face.fullName)
            insert(
                plan.fullNameMap, slots: plan.fullNameSlots, hash: SnapshotHash.caseInsensitive(face.fullName), entry: i
            ) { CaseInsensitiveName(faces[$0].fullName) == full }
        }
    }

    /// Inserts an entry by linear probing unless an entry with the same hash is `taken` (same name).
    private mutating func insert(_ map: Int, slots: Int, hash: UInt32, entry: Int, taken: (Int) -> Bool) {
        var slot = Int(hash) & (slots - 1)
        while true {
            let at = map + slot * SnapshotLayout.mapSlotSize
            let existing = Int(get32(at + 4))
            if existing == 0 {
                put32(at, hash)
                put32(at + 4, UInt32(entry + 1))
                return
            }
            if get32(at) == hash && taken(existing - 1) { return }
            slot = (slot + 1) & (slots - 1)
        }
    }

    /// The position of the face the PostScript map finds for `name`, as ``FontIndex/face(postscriptName:)``.
    private func postscriptPosition(_ name: String, _ plan: Plan) -> Int? {
        let hash = SnapshotHash.caseInsensitive(name)
        let key = CaseInsensitiveName(name)
        var slot = Int(hash) & (plan.postscriptSlots - 1)
        while true {
            let at = plan.postscriptMap + slot * SnapshotLayout.mapSlotSize
            let entry = Int(get32(at + 4))
            if entry == 0 { return nil }
            if get32(at) == hash && CaseInsensitiveName(faces[entry - 1].postscriptName) == key {
                return entry - 1
            }
            slot = (slot + 1) & (plan.postscriptSlots - 1)
        }
    }

    /// The string reference of a face's PostScript name when it is spelled exactly `name`.
    private func sameString(_ name: String, atFace face: Int, _ plan: Plan) -> (UInt32, UInt32)? {
        guard faces[face].postscriptName == name else { return nil }
        let at = plan.faces + face * SnapshotLayout.faceSize
        return (get32(at), get32(at + 4))
    }

    // MARK: Registry part

    /// The registry part after the public one: files, their faces, directories, problems, its strings.
    private mutating func writeRegistry(_ registry: SnapshotRegistryPart, _ faces: [FaceRecord], hasDuplicates: Bool) {
        typealias H = SnapshotLayout.Header
        var position: [String: Int] = [:]
        position.reserveCapacity(faces.count)
        for (i, face) in faces.enumerated() { position[FontIndex.identity(face)] = i }
        let files = registry.files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var fileFaces: [UInt32] = []
        fileFaces.reserveCapacity(faces.count)
        var names: [UInt8] = []
        func name(_ value: String) -> (UInt32, UInt32) {
            defer { names.append(contentsOf: value.utf8) }
            return (UInt32(names.count), UInt32(value.utf8.count))
        }
        func align() { while out.count % 8 != 0 { out.append(0) } }
        align()
        let fileTable = out.count
        out.append(contentsOf: repeatElement(0, count: files.count * SnapshotLayout.fileSize))
        for (i, file) in files.enumerated() {
            let at = fileTable + i * SnapshotLayout.fileSize
            putString(at, name(file.path))
            put64(at + 8, file.identity.device)
            put64(at + 16, file.identity.inode)
            put64(at + 24, UInt64(bitPattern: file.size))
            put64(at + 32, UInt64(bitPattern: Int64(file.modified)))
            put32(at + 40, UInt32(fileFaces.count))
            var count: UInt32 = 0
            for face in file.faces {
                guard let p = position[FontIndex.identity(face)] else { continue }
                fileFaces.append(UInt32(p))
                count += 1
            }
            put32(at + 44, count)
        }
        align()
        let faceTable = out.count
        out.append(contentsOf: repeatElement(0, count: fileFaces.count * 4))
        for (i, p) in fileFaces.enumerated() { put32(faceTable + i * 4, p) }
        align()
        let directoryTable = out.count
        out.append(contentsOf: repeatElement(0, count: registry.directories.count * SnapshotLayout.directorySize))
        for (i, directory) in registry.directories.enumerated() {
            let at = directoryTable + i * SnapshotLayout.directorySize
            putString(at, name(directory.path))
            put64(at + 8, directory.device)
            put64(at + 16, directory.inode)
            put64(at + 24, UInt64(bitPattern: directory.size))
            put64(at + 32, UInt64(bitPattern: Int64(directory.modified)))
        }
        align()
        let problemTable = out.count
        out.append(contentsOf: repeatElement(0, count: registry.problems.count * SnapshotLayout.problemSize))
        for (i, problem) in registry.problems.enumerated() {
            let at = problemTable + i * SnapshotLayout.problemSize
            putString(at, name(problem.path))
            putString(at + 8, name(problem.reason))
        }
        out.append(contentsOf: registry.problems.map(\.kind.code))
        align()
        let stringTable = out.count
        out.append(contentsOf: names)
        let tables: [(Int, Int, Int)] = [
            (H.files, files.count, fileTable), (H.fileFaces, fileFaces.count, faceTable),
            (H.directories, registry.directories.count, directoryTable),
            (H.problems, registry.problems.count, problemTable), (H.registryStrings, names.count, stringTable),
        ]
        for (field, count, offset) in tables {
            put32(field, UInt32(count))
            put32(field + 4, UInt32(offset))
        }
        put64(H.configStamp, registry.stamp)
        put32(
            H.registryFlags,
            SnapshotLayout.RegistryFlag.problemKinds | (hasDuplicates ? SnapshotLayout.RegistryFlag.hasDuplicates : 0))
    }

    // MARK: Bytes

    /// Appends a string that rarely repeats (names, paths) to the string table.
    private mutating func unique(_ value: String) -> (UInt32, UInt32) {
        let entry = (UInt32(strings.count), UInt32(value.utf8.count))
        strings.append(contentsOf: value.utf8)
        return entry
    }

    /// A string that repeats, stored once.
    private mutating func repeated(_ value: String) -> (UInt32, UInt32) {
        if let known = shared[value] { return known }
        let entry = unique(value)
        shared[value] = entry
        return entry
    }

    /// A string reference: offset into the string table and length.
    private mutating func putString(_ at: Int, _ ref: (UInt32, UInt32)) {
        put32(at, ref.0)
        put32(at + 4, ref.1)
    }

    /// Stores a little-endian `UInt32`.
    private mutating func put32(_ at: Int, _ value: UInt32) {
        out.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt32.self) }
    }

    /// Stores a little-endian `UInt64`.
    private mutating func put64(_ at: Int, _ value: UInt64) {
        out.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt64.self) }
    }

    /// The little-endian `UInt32` already stored at `at`.
    private func get32(_ at: Int) -> UInt32 {
        out.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }
}

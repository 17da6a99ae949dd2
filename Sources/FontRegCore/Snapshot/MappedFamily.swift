/// One family record of a mapped snapshot, read in place: what a resolve asks of a
/// ``FamilyEntry`` (its weights, a composed-name slot, the best face for a request) costs a
/// few loads from the mapping and the decoding of only the face it answers with.
struct MappedFamily: InPlaceFamily {
    /// The snapshot the record lies in (kept alive by this reference).
    let snapshot: MappedSnapshot
    /// The absolute offset of the family record.
    let record: Int
    /// The position of the family's first face in the face table.
    let first: Int
    /// The number of faces in the face table, including those not served.
    let count: Int
    /// The family flags (``SnapshotLayout/FamilyFlag``).
    let flags: UInt32

    /// Reads the record at `record` of `snapshot` (already validated).
    init(snapshot: MappedSnapshot, record: Int) {
        self.snapshot = snapshot
        self.record = record
        let reader = snapshot.reader
        first = Int(reader.u32(record + SnapshotLayout.Family.firstFace))
        count = Int(reader.u32(record + SnapshotLayout.Family.faceCount))
        flags = reader.u32(record + SnapshotLayout.Family.flags)
    }

    /// The reader over the snapshot's bytes.
    private var reader: SnapshotReader { snapshot.reader }

    /// The absolute offset of face record `position`.
    private func faceRecord(_ position: Int) -> Int {
        snapshot.sections.faces.offset + position * SnapshotLayout.faceSize
    }

    /// Whether the face at `position` is served (not a duplicate that lost, not hidden).
    private func served(_ position: Int) -> Bool {
        reader.u32(faceRecord(position) + SnapshotLayout.Face.flags) & SnapshotLayout.Flag.notServed == 0
    }

    /// Whether every face in the family's range is served (no duplicate lost, none hidden).
    var allServed: Bool { flags & SnapshotLayout.FamilyFlag.hasDuplicates == 0 }

    /// The duplicate groups whose winner is a face of this family, in the index's order (as
    /// ``FamilyEntry/duplicates`` of the family built in memory); none without the family flag.
    var duplicates: [DuplicateGroup] {
        guard !allServed else { return [] }
        return snapshot.duplicateGroups { (first..<first + count).contains($0) }
    }

    /// The served faces, decoded, in the index's order.
    var faces: [FaceRecord] {
        var faces: [FaceRecord] = []
        faces.reserveCapacity(count)
        for position in first..<first + count where served(position) {
            faces.append(reader.face(position, sections: snapshot.sections))
        }
        return faces
    }

    /// The number of served faces.
    var servedCount: Int {
        if allServed { return count }
        var served = 0
        for position in first..<first + count where self.served(position) { served += 1 }
        return served
    }

    /// The default rule, as ``FamilyRule/defaultRule(for:faces:)`` derived it when the index was built.
    func defaultRule(name: String) -> FamilyRule {
        FamilyRule(
            family: name,
            familyName: reader.string(reader.stringRef(at: record + SnapshotLayout.Family.ruleFamilyName)),
            source: reader.string(reader.stringRef(at: record + SnapshotLayout.Family.ruleSource)))
    }

    /// The registered weights of a style, lightest first.
    func weights(style: FontStyle) -> [Int] {
        let s: Int
        switch style {
        case .normal: s = 0
        case .italic: s = 1
        case .oblique: s = 2
        }
        var start = Int(reader.u32(record + SnapshotLayout.Family.firstWeight))
        for before in 0..<s { start += Int(reader.u32(record + SnapshotLayout.Family.weightCounts + before * 4)) }
        let n = Int(reader.u32(record + SnapshotLayout.Family.weightCounts + s * 4))
        let table = snapshot.sections.weights.offset
        return (start..<start + n).map { reader.i32(table + $0 * 4) }
    }

    /// The default rule's composed-name slot `slot` (see ``FamilyEntry/composedSlot(weight:italic:)``).
    func composed(slot: Int) -> FamilyEntry.ComposedSlot {
        let at = record + SnapshotLayout.Family.slots + slot * 16
        let kind = reader.u32(at + 8)
        guard kind != 0 else { return .missing(name: reader.string(reader.stringRef(at: at))) }
        let position = Int(reader.u32(at + 12))
        let face = snapshot.decodedFace(position)
        // The writer shares the bytes of a name spelled as the face's PostScript name: reuse the decoded string.
        let sameBytes =
            reader.u32(at) == reader.u32(faceRecord(position))
            && reader.u32(at + 4) == reader.u32(faceRecord(position) + 4)
        let name = sameBytes ? face.postscriptName : reader.string(reader.stringRef(at: at))
        return kind == 1 ? .found(name: name, face: face) : .misfit(name: name, face: face)
    }

    /// The face CSS picks for a request, with its rank, read from the stored traits (as
    /// ``FaceMatcher/best(_:traits:for:)`` over the decoded faces would).
    func best(for request: FaceMatcher.Request) -> (face: FaceRecord, rank: FaceMatcher.Rank)? {
        var best: (position: Int, rank: FaceMatcher.Rank)?
        let all = allServed
        for position in first..<first + count where all || served(position) {
            let r = FaceMatcher.rank(traits(position), for: request)
            if best == nil || r < best!.rank {
                best = (position, r)
                if r.isPerfect { break }
            }
        }
        return best.map { (snapshot.decodedFace($0.position), $0.rank) }
    }

    /// The matching traits stored in a face record.
    private func traits(_ position: Int) -> FaceMatcher.Traits {
        typealias F = SnapshotLayout.Face
        let at = faceRecord(position)
        let bits = reader.u32(at + F.traits)
        // The validator checked that each minimum is at most its maximum.
        return FaceMatcher.Traits(
            width: reader.f64(at + F.widthMinimum)...reader.f64(at + F.widthMaximum),
            angle: reader.f64(at + F.angleMinimum)...reader.f64(at + F.angleMaximum),
            weight: reader.i32(at + F.weightMinimum)...reader.i32(at + F.weightMaximum),
            upright: bits & SnapshotLayout.Trait.upright != 0, italic: bits & SnapshotLayout.Trait.italic != 0,
            oblique: bits & SnapshotLayout.Trait.oblique != 0, italicAxis: bits & SnapshotLayout.Trait.italicAxis != 0)
    }
}

extension FaceMatcher.Traits {
    /// Traits read back from a snapshot.
    init(
        width: ClosedRange<Double>, angle: ClosedRange<Double>, weight: ClosedRange<Int>, upright: Bool, italic: Bool,
        oblique: Bool, italicAxis: Bool
    ) {
        self.width = width
        self.angle = angle
        self.weight = weight
        self.upright = upright
        self.italic = italic
        self.oblique = oblique
        self.italicAxis = italicAxis
    }
}

/// An index whose faces are read in place instead of built in memory: what ``FontIndex`` asks
/// of the registry's mapped snapshot (a warm start).
///
/// The index layer states what it needs; the snapshot layer, above it, provides the one
/// implementation (`MappedIndex`), so that the index never names the file format.
protocol InPlaceIndex: Sendable {
    /// Every face, decoded, in the index's order (duplicates that lost included).
    var faces: [FaceRecord] { get }
    /// The number of faces, without decoding them.
    var faceCount: Int { get }
    /// Each face's font file, in ``faces``' order, without decoding the faces.
    var faceFiles: [String] { get }
    /// Every family, sorted by name.
    var families: [FamilyEntry] { get }
    /// The number of families.
    var familyCount: Int { get }
    /// The files that could not be used.
    var problems: [ScanProblem] { get }
    /// Faces claimed by more than one file.
    var duplicates: [DuplicateGroup] { get }
    /// The family under a normalized key, or `nil`.
    func family(key: FamilyKey) -> FamilyEntry?
    /// The family at a position of ``families``, read alone, or `nil` outside them.
    func family(at position: Int) -> FamilyEntry?
    /// The face with this PostScript name, ignoring case, or `nil`.
    func face(postscriptName: String) -> FaceRecord?
    /// The face with this full name, ignoring case, or `nil`.
    func face(fullName: String) -> FaceRecord?
    /// The registered families closest to a name that is not registered, best first.
    func suggestions(for name: String) -> [String]
}

/// A family whose faces are read in place: what ``FamilyEntry`` asks of a family record of the
/// mapped snapshot (the snapshot layer's `MappedFamily`).
protocol InPlaceFamily: Sendable {
    /// The served faces, decoded, in the index's order.
    var faces: [FaceRecord] { get }
    /// The number of served faces, without decoding them.
    var servedCount: Int { get }
    /// The duplicate groups whose winner is a face of this family.
    var duplicates: [DuplicateGroup] { get }
    /// The weights the family serves in a style, lightest first.
    func weights(style: FontStyle) -> [Int]
    /// The default rule's composed name of a slot (``FamilyEntry/composedSlot(weight:italic:)``).
    func composed(slot: Int) -> FamilyEntry.ComposedSlot
    /// The face CSS picks for a request, with its rank.
    func best(for request: FaceMatcher.Request) -> (face: FaceRecord, rank: FaceMatcher.Rank)?
}

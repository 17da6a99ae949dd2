import Synchronization

/// The index served in place from the registry's mapped `index.snapshot` (issue 13): a warm
/// start maps the file and is ready, with no face decoded and no table built. Lookups read the
/// records they need (``MappedSnapshot``, ``MappedFamily``); what the file does not hold in a
/// form to read in place (the "did you mean" keys) is built on first use.
///
/// Duplicate groups are read from the file (``MappedSnapshot/duplicateGroups(where:)``), so a
/// registry with duplicate faces starts warm too.
final class MappedIndex: InPlaceIndex {
    /// The mapped file.
    let snapshot: MappedSnapshot
    /// The files that could not be used, as the file recorded them (plus the registry's own).
    let problems: [ScanProblem]
    /// The family keys prepared for "did you mean", built when first asked.
    private let suggester = Mutex<FamilySuggester?>(nil)

    /// An index over a mapped file that ``SnapshotValidator`` accepted.
    init(snapshot: MappedSnapshot, problems: [ScanProblem]) {
        self.snapshot = snapshot
        self.problems = problems
    }

    /// Every face, decoded (for listings; a resolve never asks for it).
    var faces: [FaceRecord] {
        let reader = snapshot.reader, sections = snapshot.sections
        return (0..<snapshot.faceCount).map { reader.face($0, sections: sections) }
    }

    /// Each face's font file, read from its record's string reference alone (a warm start's
    /// file-readability check asks for every file; decoding every face for it was most of the
    /// start once the coverage index moved after READY).
    var faceFiles: [String] {
        let reader = snapshot.reader, faces = snapshot.sections.faces.offset
        return (0..<snapshot.faceCount).map {
            reader.string(reader.stringRef(at: faces + $0 * SnapshotLayout.faceSize + SnapshotLayout.Face.file))
        }
    }

    /// Every family, each an entry over its record.
    var families: [FamilyEntry] { (0..<snapshot.familyCount).compactMap(snapshot.family(at:)) }

    /// The number of faces, without decoding them.
    var faceCount: Int { snapshot.faceCount }

    /// The number of families.
    var familyCount: Int { snapshot.familyCount }

    /// Faces claimed by more than one file, read from the file.
    var duplicates: [DuplicateGroup] { snapshot.duplicateGroups() }

    /// The family under a normalized key, or `nil`.
    func family(key: FamilyKey) -> FamilyEntry? { snapshot.family(key: key) }

    /// The family at a position of ``families``, read from its record alone.
    func family(at position: Int) -> FamilyEntry? { snapshot.family(at: position) }

    /// The face with this PostScript name, ignoring case, or `nil`.
    func face(postscriptName: String) -> FaceRecord? { snapshot.face(postscriptName: postscriptName) }

    /// The face with this full name, ignoring case, or `nil`.
    func face(fullName: String) -> FaceRecord? { snapshot.face(fullName: fullName) }

    /// The registered families closest to a name that is not registered.
    func suggestions(for name: String) -> [String] {
        let suggester = self.suggester.withLock { cached in
            if let cached { return cached }
            let made = FamilySuggester(familyNames: snapshot.familyNames)
            cached = made
            return made
        }
        return suggester.suggestions(for: name)
    }
}

extension FontIndex {
    /// The index a mapped snapshot serves, read in place as the registry serves its own file
    /// (for the fuzzer and tests that drive a snapshot's bytes through the resolvers).
    ///
    /// - Parameter snapshot: the mapped snapshot.
    package init(serving snapshot: MappedSnapshot) {
        self.init(mapped: MappedIndex(snapshot: snapshot, problems: []), generation: Int(clamping: snapshot.generation))
    }
}

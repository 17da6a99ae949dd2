/// The index built in memory from scanned faces: every face as a ``FaceRecord``, every family
/// as a ``FamilyEntry`` with its computed tables, two name maps. What a cold start and every
/// change build (``FontIndex/Storage/built(_:)``).
struct BuiltIndex: Sendable {
    /// Every face, sorted by family, width, style and weight.
    let faces: [FaceRecord]
    /// Files that could not be used, with the reason.
    let problems: [ScanProblem]
    /// Faces claimed by more than one file, with the face used and the ones not used (see ``DuplicateGroup``).
    let duplicates: [DuplicateGroup]

    private let familiesByKey: [FamilyKey: FamilyEntry]
    private let byPostscriptName: [CaseInsensitiveName: Int]
    private let byFullName: [CaseInsensitiveName: Int]
    /// Families sorted by name.
    let families: [FamilyEntry]
    /// The family keys prepared for "did you mean".
    private let suggester: FamilySuggester

    /// Builds the index of these faces.
    ///
    /// - Parameters:
    ///   - faces: the faces, in any order.
    ///   - problems: files that could not be used.
    ///   - directories: the font directories in configuration order, which decide between
    ///     duplicates of equal revision (see ``DuplicateGroup``).
    init(faces: [FaceRecord], problems: [ScanProblem], directories: [String]) {
        self.problems = problems
        let duplicates = DuplicateGroup.find(in: faces, directories: directories)
        self.duplicates = duplicates
        var losers: Set<String> = []
        for group in duplicates {
            for loser in group.losers { losers.insert(FontIndex.identity(loser.face)) }
        }
        var grouped: [FamilyKey: (name: String, faces: [FaceRecord])] = [:]
        for face in faces {
            grouped[FamilyKey(face.family), default: (face.family, [])].faces.append(face)
        }
        let groups = grouped.values.map { (name: $0.name, faces: FamilyEntry.sortedFaces($0.faces)) }
            .sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
        let sorted = groups.flatMap(\.faces)
        self.faces = sorted
        var ps = [CaseInsensitiveName: Int](minimumCapacity: sorted.count)
        var full = [CaseInsensitiveName: Int](minimumCapacity: sorted.count)
        // The first face wins a name (static faces sort before a variable font's instances):
        // assigned from the last face to the first, so that each face costs one lookup per map.
        // A duplicate that lost never takes a name.
        for i in sorted.indices.reversed() where losers.isEmpty || !losers.contains(FontIndex.identity(sorted[i])) {
            ps[CaseInsensitiveName(sorted[i].postscriptName)] = i
            full[CaseInsensitiveName(sorted[i].fullName)] = i
        }
        byPostscriptName = ps
        byFullName = full
        let entries = groups.map { group in
            let used = losers.isEmpty ? group.faces : group.faces.filter { !losers.contains(FontIndex.identity($0)) }
            let key = FamilyKey(group.name)
            let own = duplicates.filter { FamilyKey($0.winner.family) == key }
            return FamilyEntry(name: group.name, sorted: used, duplicates: own) { name in
                ps[CaseInsensitiveName(name)].map { sorted[$0] }
            }
        }
        families = entries
        familiesByKey = Dictionary(uniqueKeysWithValues: entries.map { (FamilyKey($0.name), $0) })
        suggester = FamilySuggester(familyNames: entries.map(\.name))
    }

    /// The family with this name under its normalized key ("noto-sans" finds "Noto Sans").
    ///
    /// - Parameter name: the family name in any spelling.
    /// - Returns: the family, or `nil` when none is registered under that name.
    func family(named name: String) -> FamilyEntry? {
        familiesByKey[FamilyKey(name)]
    }

    /// The family under an already normalized key.
    ///
    /// - Parameter key: the normalized family name.
    /// - Returns: the family, or `nil`.
    func family(key: FamilyKey) -> FamilyEntry? {
        familiesByKey[key]
    }

    /// The face with this PostScript name, ignoring case.
    ///
    /// - Parameter postscriptName: the PostScript name, e.g. `Lato-Bold`.
    /// - Returns: the face, or `nil`.
    func face(postscriptName: String) -> FaceRecord? {
        byPostscriptName[CaseInsensitiveName(postscriptName)].map { faces[$0] }
    }

    /// The face with this full name, ignoring case.
    ///
    /// - Parameter fullName: the full name, e.g. `Lato Bold`.
    /// - Returns: the face, or `nil`.
    func face(fullName: String) -> FaceRecord? {
        byFullName[CaseInsensitiveName(fullName)].map { faces[$0] }
    }

    /// The registered families closest to a name that is not registered, best first (at most three).
    ///
    /// The cost depends on the index, not on `name`: the search is bounded (`FamilySuggester`).
    /// - Parameter name: the name that was not found.
    /// - Returns: up to three registered family names, closest first.
    func suggestions(for name: String) -> [String] {
        suggester.suggestions(for: name)
    }
}

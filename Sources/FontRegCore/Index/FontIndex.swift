import FontRegJSON
import FontRegSystem

/// An immutable snapshot of every registered face, with fast lookups; replaced whole on change.
///
/// Lookups by PostScript name and full name ignore case; families are found by their
/// ``FamilyKey``. Readers hold a snapshot for as long as they need it, so a rescan never
/// stalls a query.
public struct FontIndex: Sendable {
    /// Increases by one with every change to the registry.
    public let generation: Int
    /// Every face, sorted by family, width, style and weight.
    public let faces: [FaceRecord]
    /// Files that could not be used, with the reason.
    public let problems: [ScanProblem]
    /// Faces claimed by more than one file, with the face used and the ones not used (see ``DuplicateGroup``).
    public let duplicates: [DuplicateGroup]

    private let familiesByKey: [FamilyKey: FamilyEntry]
    private let byPostscriptName: [CaseInsensitiveName: Int]
    private let byFullName: [CaseInsensitiveName: Int]
    /// Families sorted by name.
    public let families: [FamilyEntry]
    /// The family keys prepared for "did you mean".
    private let suggester: FamilySuggester

    /// Builds the index of these faces.
    ///
    /// - Parameters:
    ///   - faces: the faces, in any order.
    ///   - problems: files that could not be used.
    ///   - generation: the registry generation this snapshot belongs to.
    ///   - directories: the font directories in configuration order, which decide between
    ///     duplicates of equal revision (see ``DuplicateGroup``).
    public init(faces: [FaceRecord], problems: [ScanProblem] = [], generation: Int = 0, directories: [String] = []) {
        self.generation = generation
        self.problems = problems
        let duplicates = DuplicateGroup.find(in: faces, directories: directories)
        self.duplicates = duplicates
        var losers: Set<String> = []
        for group in duplicates {
            for loser in group.losers { losers.insert(Self.identity(loser.face)) }
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
        for i in sorted.indices.reversed() where losers.isEmpty || !losers.contains(Self.identity(sorted[i])) {
            ps[CaseInsensitiveName(sorted[i].postscriptName)] = i
            full[CaseInsensitiveName(sorted[i].fullName)] = i
        }
        byPostscriptName = ps
        byFullName = full
        let entries = groups.map { group in
            let used = losers.isEmpty ? group.faces : group.faces.filter { !losers.contains(Self.identity($0)) }
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

    /// A face's identity across the index: its file and FreeType index.
    static func identity(_ face: FaceRecord) -> String { "\(face.file)#\(face.freetypeIndex)" }

    /// The family with this name under its normalized key ("noto-sans" finds "Noto Sans").
    ///
    /// - Parameter name: the family name in any spelling.
    /// - Returns: the family, or `nil` when none is registered under that name.
    public func family(named name: String) -> FamilyEntry? {
        familiesByKey[FamilyKey(name)]
    }

    /// The family under an already normalized key.
    ///
    /// - Parameter key: the normalized family name.
    /// - Returns: the family, or `nil`.
    public func family(key: FamilyKey) -> FamilyEntry? {
        familiesByKey[key]
    }

    /// The face with this PostScript name, ignoring case.
    ///
    /// - Parameter postscriptName: the PostScript name, e.g. `Lato-Bold`.
    /// - Returns: the face, or `nil`.
    public func face(postscriptName: String) -> FaceRecord? {
        byPostscriptName[CaseInsensitiveName(postscriptName)].map { faces[$0] }
    }

    /// The face with this full name, ignoring case.
    ///
    /// - Parameter fullName: the full name, e.g. `Lato Bold`.
    /// - Returns: the face, or `nil`.
    public func face(fullName: String) -> FaceRecord? {
        byFullName[CaseInsensitiveName(fullName)].map { faces[$0] }
    }

    /// The registered families closest to a name that is not registered, best first (at most three).
    ///
    /// The cost depends on the index, not on `name`: the search is bounded (`FamilySuggester`).
    /// - Parameter name: the name that was not found.
    /// - Returns: up to three registered family names, closest first.
    public func suggestions(for name: String) -> [String] {
        suggester.suggestions(for: name)
    }
}

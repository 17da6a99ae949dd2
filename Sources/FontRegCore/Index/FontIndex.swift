/// An immutable snapshot of every registered face, with fast lookups; replaced whole on change.
///
/// Lookups by PostScript name and full name ignore case; families are found by their
/// ``FamilyKey``. Readers hold a snapshot for as long as they need it, so a rescan never
/// stalls a query. The faces are either built in memory (a cold start, every change) or read
/// in place from the registry's mapped index file (a warm start, issue 13); every lookup
/// answers the same either way.
public struct FontIndex: Sendable {
    /// Where the faces are kept.
    enum Storage: Sendable {
        /// Built in memory from scanned faces.
        case built(BuiltIndex)
        /// Read in place from the mapped index file.
        case mapped(any InPlaceIndex)
    }

    /// Increases by one with every change to the registry.
    public let generation: Int
    /// Where the faces are kept.
    let storage: Storage

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
        storage = .built(BuiltIndex(faces: faces, problems: problems, directories: directories))
    }

    /// The index served from a mapped index file.
    init(mapped: any InPlaceIndex, generation: Int) {
        self.generation = generation
        storage = .mapped(mapped)
    }

    /// Whether the faces are read in place from the mapped index file (a warm start, until the first change).
    public var isMapped: Bool {
        if case .mapped = storage { return true }
        return false
    }

    /// Every face, sorted by family, width, style and weight (duplicates that lost included).
    ///
    /// A mapped index decodes them on each call: ask ``faceCount`` for the number.
    public var faces: [FaceRecord] {
        switch storage {
        case .built(let built): built.faces
        case .mapped(let mapped): mapped.faces
        }
    }

    /// Each face's font file, in ``faces``' order; a mapped index reads them without decoding the faces.
    package var faceFiles: [String] {
        switch storage {
        case .built(let built): built.faces.map(\.file)
        case .mapped(let mapped): mapped.faceFiles
        }
    }

    /// The number of faces (``faces``' count, without decoding them).
    public var faceCount: Int {
        switch storage {
        case .built(let built): built.faces.count
        case .mapped(let mapped): mapped.faceCount
        }
    }

    /// Families sorted by name.
    public var families: [FamilyEntry] {
        switch storage {
        case .built(let built): built.families
        case .mapped(let mapped): mapped.families
        }
    }

    /// The family at a position of ``families``, without the others (a mapped index reads its record alone).
    ///
    /// - Parameter position: 0 ..< ``familyCount``.
    /// - Returns: the family, or `nil` outside the range.
    package func family(at position: Int) -> FamilyEntry? {
        switch storage {
        case .built(let built): built.families.indices.contains(position) ? built.families[position] : nil
        case .mapped(let mapped): mapped.family(at: position)
        }
    }

    /// The number of families (``families``' count).
    public var familyCount: Int {
        switch storage {
        case .built(let built): built.families.count
        case .mapped(let mapped): mapped.familyCount
        }
    }

    /// Files that could not be used, with the reason.
    public var problems: [ScanProblem] {
        switch storage {
        case .built(let built): built.problems
        case .mapped(let mapped): mapped.problems
        }
    }

    /// Faces claimed by more than one file, with the face used and the ones not used (see
    /// ``DuplicateGroup``), in the mapped case read from the file.
    public var duplicates: [DuplicateGroup] {
        switch storage {
        case .built(let built): built.duplicates
        case .mapped(let mapped): mapped.duplicates
        }
    }

    /// A face's identity across the index: its file and FreeType index.
    static func identity(_ face: FaceRecord) -> String { "\(face.file)#\(face.freetypeIndex)" }

    /// The family with this name under its normalized key ("noto-sans" finds "Noto Sans").
    ///
    /// - Parameter name: the family name in any spelling.
    /// - Returns: the family, or `nil` when none is registered under that name.
    public func family(named name: String) -> FamilyEntry? {
        family(key: FamilyKey(name))
    }

    /// The family under an already normalized key.
    ///
    /// - Parameter key: the normalized family name.
    /// - Returns: the family, or `nil`.
    public func family(key: FamilyKey) -> FamilyEntry? {
        switch storage {
        case .built(let built): built.family(key: key)
        case .mapped(let mapped): mapped.family(key: key)
        }
    }

    /// The face with this PostScript name, ignoring case.
    ///
    /// - Parameter postscriptName: the PostScript name, e.g. `Lato-Bold`.
    /// - Returns: the face, or `nil`.
    public func face(postscriptName: String) -> FaceRecord? {
        switch storage {
        case .built(let built): built.face(postscriptName: postscriptName)
        case .mapped(let mapped): mapped.face(postscriptName: postscriptName)
        }
    }

    /// The face with this full name, ignoring case.
    ///
    /// - Parameter fullName: the full name, e.g. `Lato Bold`.
    /// - Returns: the face, or `nil`.
    public func face(fullName: String) -> FaceRecord? {
        switch storage {
        case .built(let built): built.face(fullName: fullName)
        case .mapped(let mapped): mapped.face(fullName: fullName)
        }
    }

    /// The registered families closest to a name that is not registered, best first (at most three).
    ///
    /// The cost depends on the index, not on `name`: the search is bounded (`FamilySuggester`).
    /// - Parameter name: the name that was not found.
    /// - Returns: up to three registered family names, closest first.
    public func suggestions(for name: String) -> [String] {
        switch storage {
        case .built(let built): built.suggestions(for: name)
        case .mapped(let mapped): mapped.suggestions(for: name)
        }
    }
}

/// A registered family and its faces, sorted by style and weight.
///
/// A class so that handing an entry out of the index costs one reference count, not one per field.
public final class FamilyEntry: Sendable, Hashable {
    /// The typographic family name as the fonts spell it.
    public let name: String
    /// The faces, normal before italic before oblique, lightest first; duplicates that lost are left out.
    ///
    /// A family read from a mapped snapshot decodes them on each call: resolving asks for
    /// `faceCount`, `bestFace(for:)` and `composed(slot:)` instead.
    public var faces: [FaceRecord] { mapped?.faces ?? storedFaces }
    /// The faces of a family built in memory (empty for a mapped one).
    private let storedFaces: [FaceRecord]
    /// The family record this entry reads in place, for a family from a ``MappedSnapshot``.
    let mapped: (any InPlaceFamily)?
    /// The duplicate groups whose winner is a face of this family (see ``DuplicateGroup``).
    public let duplicates: [DuplicateGroup]
    /// What matching needs of each face, `matchTraits[i]` of `faces[i]`, worked out once.
    let matchTraits: [FaceMatcher.Traits]

    /// The rule a family without a rule file gets, derived once when the index is built.
    public let defaultRule: FamilyRule
    /// The weights registered per style, computed once (see ``registeredWeights(style:)``).
    private let weightsByStyle: [FontStyle: [Int]]
    /// The faces of the width CSS prefers (normal, else the nearest), per style, computed once.
    let preferredFacesByStyle: [FontStyle: [FaceRecord]]
    /// The default rule's composed name of each step and style, looked up once when the index is
    /// built (see ``ComposedSlot``); indexed by ``composedSlot(weight:italic:)``.
    let defaultComposed: [ComposedSlot]

    /// What the default rule's composed name of a step finds among the registered faces.
    enum ComposedSlot: Sendable, Hashable {
        /// A face of this family with that name and a weight range covering the step.
        case found(name: String, face: FaceRecord)
        /// A face with that name, but of another weight or family (Lato's "Thin" is 200).
        case misfit(name: String, face: FaceRecord)
        /// No registered face has that name.
        case missing(name: String)
    }

    /// The slot of a step (100…900) and style in ``defaultComposed``.
    static func composedSlot(weight: Int, italic: Bool) -> Int {
        (weight / 100 - 1) * 2 + (italic ? 1 : 0)
    }

    /// Creates the entry of a family whose faces are all known (names are looked up among them).
    package convenience init(name: String, faces: [FaceRecord]) {
        let sorted = FamilyEntry.sortedFaces(faces)
        var own: [CaseInsensitiveName: FaceRecord] = [:]
        for face in sorted where own[CaseInsensitiveName(face.postscriptName)] == nil {
            own[CaseInsensitiveName(face.postscriptName)] = face
        }
        self.init(name: name, sorted: sorted) { own[CaseInsensitiveName($0)] }
    }

    /// Creates the entry with faces already in ``order`` and a lookup of every registered PostScript name.
    init(name: String, sorted: [FaceRecord], duplicates: [DuplicateGroup] = [], lookup: (String) -> FaceRecord?) {
        self.name = name
        storedFaces = sorted
        mapped = nil
        self.duplicates = duplicates
        matchTraits = sorted.map(FaceMatcher.Traits.init)
        let rule = FamilyRule.defaultRule(for: name, faces: sorted)
        defaultRule = rule
        var weights: [FontStyle: [Int]] = [:]
        for style in FontStyle.allCases {
            weights[style] = FamilyEntry.computeWeights(sorted.filter { $0.style == style })
        }
        weightsByStyle = weights
        preferredFacesByStyle = Dictionary(grouping: WeightMatcher.preferredWidth(sorted), by: \.style)
        let key = FamilyKey(name)
        var slots: [ComposedSlot] = []
        for step in FontWeight.steps {
            for italic in [false, true] {
                let composed = rule.composedName(weight: step.value, italic: italic)!
                if let face = lookup(composed) {
                    let fits = FamilyKey(face.family) == key && face.weightRange.contains(step.value)
                    slots.append(fits ? .found(name: composed, face: face) : .misfit(name: composed, face: face))
                } else {
                    slots.append(.missing(name: composed))
                }
            }
        }
        defaultComposed = slots
    }

    /// Creates the entry of a mapped family record; the answers computed in memory are read from the record.
    init(name: String, mapped: any InPlaceFamily, defaultRule: FamilyRule) {
        self.name = name
        storedFaces = []
        self.mapped = mapped
        duplicates = mapped.duplicates
        matchTraits = []
        self.defaultRule = defaultRule
        weightsByStyle = [:]
        preferredFacesByStyle = [:]
        defaultComposed = []
    }

    /// Two entries are equal when they have the same name and faces.
    public static func == (a: FamilyEntry, b: FamilyEntry) -> Bool { a.name == b.name && a.faces == b.faces }
    /// Hashes the name and the number of faces.
    public func hash(into hasher: inout Hasher) { hasher.combine(name); hasher.combine(faces.count) }

    /// The faces of one style.
    ///
    /// - Parameter style: upright, italic or oblique.
    /// - Returns: the faces of that style, in the index's order (by width, then weight).
    public func faces(style: FontStyle) -> [FaceRecord] {
        faces.filter { $0.style == style }
    }

    /// The distinct font files of the family, in order.
    public var files: [String] {
        var seen: Set<String> = []
        return faces.compactMap { seen.insert($0.file).inserted ? $0.file : nil }
    }

    /// The weights this family serves in a style: static weights, named instances, and the
    /// nine steps inside a variable face's range.
    ///
    /// - Parameter style: upright, italic or oblique.
    /// - Returns: the weights, lightest first.
    public func registeredWeights(style: FontStyle) -> [Int] {
        if let mapped { return mapped.weights(style: style) }
        return weightsByStyle[style] ?? []
    }

    private static func computeWeights(_ faces: [FaceRecord]) -> [Int] {
        var weights: Set<Int> = []
        for face in faces {
            let range = face.weightRange
            if range.count > 1 {
                for step in FontWeight.steps where range.contains(step.value) { weights.insert(step.value) }
            } else {
                weights.insert(face.weight)
            }
        }
        return weights.sorted()
    }

    /// The faces in ``order``, sorted by index so that the sort moves integers, not records
    /// of six strings each (every move of a record retains and releases them).
    static func sortedFaces(_ faces: [FaceRecord]) -> [FaceRecord] {
        faces.indices.sorted { order(faces[$0], faces[$1]) }.map { faces[$0] }
    }

    static func order(_ a: FaceRecord, _ b: FaceRecord) -> Bool {
        // A switch, not a dictionary literal: this runs for every comparison of every index build.
        func rank(_ style: FontStyle) -> Int {
            switch style {
            case .normal: 0
            case .italic: 1
            case .oblique: 2
            }
        }
        return (a.width, rank(a.style), a.weight, a.instance ?? 0, a.postscriptName)
            < (b.width, rank(b.style), b.weight, b.instance ?? 0, b.postscriptName)
    }
}

/// A registered family and its faces, sorted by style and weight.
public struct FamilyEntry: Sendable, Hashable {
    /// The typographic family name as the fonts spell it.
    public let name: String
    /// The faces, normal before italic before oblique, lightest first.
    public let faces: [FaceRecord]

    /// The rule a family without a rule file gets, derived once when the index is built.
    public let defaultRule: FamilyRule
    /// The weights registered per style, computed once (see ``registeredWeights(style:)``).
    private let weightsByStyle: [FontStyle: [Int]]
    /// The faces of the width CSS prefers (normal, else the nearest), per style, computed once.
    let preferredFacesByStyle: [FontStyle: [FaceRecord]]

    public init(name: String, faces: [FaceRecord]) {
        self.name = name
        let sorted = faces.sorted(by: FamilyEntry.order)
        self.faces = sorted
        defaultRule = FamilyRule.defaultRule(for: name, faces: sorted)
        var weights: [FontStyle: [Int]] = [:]
        for style in FontStyle.allCases {
            weights[style] = FamilyEntry.computeWeights(sorted.filter { $0.style == style })
        }
        weightsByStyle = weights
        let preferred = WeightMatcher.preferredWidth(sorted)
        preferredFacesByStyle = Dictionary(grouping: preferred, by: \.style)
    }

    /// The faces of one style.
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
    public func registeredWeights(style: FontStyle) -> [Int] {
        weightsByStyle[style] ?? []
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

    static func order(_ a: FaceRecord, _ b: FaceRecord) -> Bool {
        let styleRank: [FontStyle: Int] = [.normal: 0, .italic: 1, .oblique: 2]
        return (a.width, styleRank[a.style]!, a.weight, a.instance ?? 0, a.postscriptName)
            < (b.width, styleRank[b.style]!, b.weight, b.instance ?? 0, b.postscriptName)
    }
}

import FontRegCore

/// A registered family and a summary of its faces: one row of `fontresolve list`, the daemon's `Family` type.
public struct FamilySummary: Sendable, Hashable, Codable {
    /// The typographic family name.
    public var name: String
    /// How many faces (named instances included) it has.
    public var faceCount: Int
    /// The distinct weights of its faces, lightest first.
    public var weights: [Int]
    /// Whether it has an italic face (obliques do not count, as in the daemon).
    public var hasItalic: Bool
    /// Its font files, in order.
    public var files: [String]

    /// A summary with every field given.
    public init(name: String, faceCount: Int, weights: [Int], hasItalic: Bool, files: [String]) {
        self.name = name
        self.faceCount = faceCount
        self.weights = weights
        self.hasItalic = hasItalic
        self.files = files
    }

    /// The summary of an index entry.
    public init(_ entry: FamilyEntry) {
        self.init(
            name: entry.name, faceCount: entry.faces.count, weights: Set(entry.faces.map(\.weight)).sorted(),
            hasItalic: entry.faces.contains(where: \.italic), files: entry.files)
    }
}

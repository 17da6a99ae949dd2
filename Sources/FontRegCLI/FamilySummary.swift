import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

/// A registered family and a summary of its faces: one row of `fontresolve list`, the daemon's `Family` type.
package struct FamilySummary: Sendable, Hashable, Codable {
    /// The typographic family name.
    package var name: String
    /// How many faces (named instances included) it has.
    package var faceCount: Int
    /// The distinct weights of its faces, lightest first.
    package var weights: [Int]
    /// Whether it has an italic face (obliques do not count, as in the daemon).
    package var hasItalic: Bool
    /// Its font files, in order.
    package var files: [String]

    package init(name: String, faceCount: Int, weights: [Int], hasItalic: Bool, files: [String]) {
        self.name = name
        self.faceCount = faceCount
        self.weights = weights
        self.hasItalic = hasItalic
        self.files = files
    }

    /// The summary of an index entry.
    package init(_ entry: FamilyEntry) {
        self.init(
            name: entry.name, faceCount: entry.faces.count, weights: Set(entry.faces.map(\.weight)).sorted(),
            hasItalic: entry.faces.contains(where: \.italic), files: entry.files)
    }
}

/// Which registered families cover which code points, for registry-wide fallback: built once per
/// index generation, so that a code point costs a few bisections, not a scan of every family.
///
/// Registry-wide fallback takes the first family, in its order (``FallbackPlan``: the design the
/// stack names first, then the shorter name, then the name), with a face that covers the cluster.
/// The order is the design bucket (0 or 1) then a base order (name length, lowercased name) that
/// does not depend on the design. So the families are split into eight classes by which of
/// `sans`, `serif` and `mono` their names contain; each design's bucket is four of the classes.
/// Each class keeps its families in base order as the leaves of a tree whose nodes hold the union
/// of their leaves' coverage (sorted, disjoint ranges): the next family at or after a position
/// whose coverage contains a code point is found by descending the tree, O(log n) bisections;
/// one tree over all faces and one over colour faces only.
///
/// What the index answers is a superset of the families a cluster fits (a family's union may
/// cover a cluster no single face of it covers): ``FallbackPlan`` checks each candidate's faces as
/// before, in the same order, so the family chosen is the one a scan of every family would choose.
final class CoverageIndex: Sendable {
    /// The index generation it was built from.
    let generation: Int
    /// The families, as ``FontIndex/families`` holds them.
    let families: [FamilyEntry]
    /// Every code point some face maps.
    let union: CharacterCoverage
    /// Family positions (into ``families``) in registry-wide order, per design.
    private let ranked: [[Int32]]
    /// Each family's position in the base order.
    private let basePosition: [Int32]
    /// Per class, the families in base order (positions into ``families``).
    private let members: [[Int32]]
    /// Per class, the base position of each member (ascending).
    private let memberBase: [[Int32]]
    /// Per class, the tree over its members' coverage of all faces, and of colour faces.
    private let trees: [CoverageTree]
    private let colorTrees: [CoverageTree]
    /// The Han region families (`Noto Sans CJK JP`, …) per region, sans-first and serif-first.
    private let regional: [String: (sans: [Int32], serif: [Int32])]

    /// The design registry-wide fallback prefers.
    enum Design: Int, CaseIterable, Sendable {
        case sans = 0
        case serif = 1
        case mono = 2

        /// The word the family name is searched for.
        var word: String {
            switch self {
            case .sans: "sans"
            case .serif: "serif"
            case .mono: "mono"
            }
        }

        /// The design a stack asks for: serif or monospace when it names them, else sans.
        static func of(_ families: [String]) -> Design {
            families.contains { $0.lowercased() == "serif" }
                ? .serif : families.contains { $0.lowercased() == "monospace" } ? .mono : .sans
        }
    }

    /// Builds the index of an index's families and their faces' coverage.
    ///
    /// - Parameter index: the faces; only the public ``FontIndex`` API is read.
    init(_ index: FontIndex) {
        generation = index.generation
        let families = index.families
        self.families = families
        let lowered = families.map { $0.name.lowercased() }
        // Base order: the shorter name, then the lowercased name, then the index's order.
        let base = families.indices.sorted {
            (families[$0].name.count, lowered[$0], $0) < (families[$1].name.count, lowered[$1], $1)
        }
        var basePosition = [Int32](repeating: 0, count: families.count)
        for (position, family) in base.enumerated() { basePosition[family] = Int32(position) }
        self.basePosition = basePosition
        func inBucket(_ name: String, _ design: Design) -> Bool {
            name.contains(design.word) && (design != .sans || !name.contains("mono"))
        }
        func classOf(_ name: String) -> Int {
            Design.allCases.reduce(0) { $0 | (inBucket(name, $1) ? 1 << $1.rawValue : 0) }
        }
        let classes = families.indices.map { classOf(lowered[$0]) }
        ranked = Design.allCases.map { design in
            let first = base.filter { classes[$0] & 1 << design.rawValue != 0 }
            let second = base.filter { classes[$0] & 1 << design.rawValue == 0 }
            return (first + second).map(Int32.init)
        }
        var members = [[Int32]](repeating: [], count: 8)
        for family in base { members[classes[family]].append(Int32(family)) }
        self.members = members
        memberBase = members.map { $0.map { basePosition[Int($0)] } }
        var all: [[UInt32]] = []
        var color: [[UInt32]] = []
        all.reserveCapacity(families.count)
        color.reserveCapacity(families.count)
        for family in families {
            var any: [UInt32] = []
            var colored: [UInt32] = []
            for face in family.faces {
                let ranges = face.coverage.ranges
                any = any == ranges ? any : CoverageTree.merge(any, ranges)
                if face.isColor { colored = colored == ranges ? colored : CoverageTree.merge(colored, ranges) }
            }
            all.append(any)
            color.append(colored)
        }
        trees = members.map { CoverageTree(leaves: $0.map { all[Int($0)] }) }
        colorTrees = members.map { CoverageTree(leaves: $0.map { color[Int($0)] }) }
        union = CharacterCoverage(ranges: all.reduce(into: []) { $0 = CoverageTree.merge($0, $1) })
        var regional: [String: (sans: [Int32], serif: [Int32])] = [:]
        for region in ["JP", "KR", "SC", "TC", "HK"] {
            let names = families.indices.filter { HanRegion.family(families[$0].name, isOf: region) }
            func order(serif: Bool) -> [Int32] {
                func key(_ i: Int) -> (Int, String) {
                    (families[i].name.lowercased().contains("serif") == serif ? 0 : 1, families[i].name)
                }
                return names.sorted { key($0) < key($1) }.map(Int32.init)
            }
            regional[region] = (order(serif: false), order(serif: true))
        }
        self.regional = regional
    }

    /// Every family in registry-wide order for a design.
    func ranked(_ design: Design) -> some Sequence<FamilyEntry> {
        ranked[design.rawValue].lazy.map { self.families[Int($0)] }
    }

    /// The families of a Han region, those of the asked design (serif or not) first, then by name.
    func regionalFamilies(_ region: String, serif: Bool) -> [FamilyEntry] {
        guard let lists = regional[region] else { return [] }
        return (serif ? lists.serif : lists.sans).map { families[Int($0)] }
    }

    /// The families whose faces together map `codePoint` (colour faces only when asked), in
    /// registry-wide order for a design: a superset of those with a face that covers a cluster
    /// holding it, in the same order.
    ///
    /// - Parameters:
    ///   - codePoint: a code point of the cluster, or `nil` for a cluster of ignorable scalars only.
    ///   - design: the design the stack asks for.
    ///   - colorOnly: whether only colour faces count.
    func candidates(covering codePoint: UInt32?, design: Design, colorOnly: Bool) -> Candidates {
        Candidates(index: self, codePoint: codePoint, design: design, colorOnly: colorOnly)
    }

    /// The candidates of ``candidates(covering:design:colorOnly:)``, found one at a time.
    struct Candidates: Sequence, IteratorProtocol {
        let index: CoverageIndex
        let codePoint: UInt32?
        let design: Design
        let colorOnly: Bool
        /// 0: the design's bucket; 1: the rest; 2: done.
        private var bucket = 0
        /// The next base position to look at within the bucket.
        private var from: Int32 = 0

        init(index: CoverageIndex, codePoint: UInt32?, design: Design, colorOnly: Bool) {
            self.index = index
            self.codePoint = codePoint
            self.design = design
            self.colorOnly = colorOnly
        }

        mutating func next() -> FamilyEntry? {
            let bit = 1 << design.rawValue
            while bucket < 2 {
                // The first member at or after `from` of the bucket's four classes.
                var best: (base: Int32, family: Int32)?
                for kind in 0..<8 where (kind & bit != 0) == (bucket == 0) {
                    let tree = colorOnly ? index.colorTrees[kind] : index.trees[kind]
                    let bases = index.memberBase[kind]
                    // The first member whose base position is at least `from`, by bisection.
                    var low = 0
                    var high = bases.count
                    while low < high {
                        let middle = (low + high) / 2
                        if bases[middle] < from { low = middle + 1 } else { high = middle }
                    }
                    guard let leaf = tree.first(from: low, containing: codePoint) else { continue }
                    if best == nil || bases[leaf] < best!.base { best = (bases[leaf], index.members[kind][leaf]) }
                }
                if let best {
                    from = best.base + 1
                    return index.families[Int(best.family)]
                }
                bucket += 1
                from = 0
            }
            return nil
        }
    }
}

/// A tree over leaves of coverage (sorted, disjoint, inclusive ranges, flattened), each node the
/// union of its leaves: finds the first leaf at or after a position that contains a code point.
struct CoverageTree: Sendable {
    /// The number of leaves.
    let count: Int
    /// Leaves start at `size` (a power of two at least `count`); node `i` has children `2i`, `2i + 1`.
    private let size: Int
    private let nodes: [CharacterCoverage]

    init(leaves: [[UInt32]]) {
        count = leaves.count
        var size = 1
        while size < leaves.count { size *= 2 }
        self.size = size
        var nodes = [[UInt32]](repeating: [], count: 2 * size)
        for (i, leaf) in leaves.enumerated() { nodes[size + i] = leaf }
        if size > 1 {
            for node in stride(from: size - 1, through: 1, by: -1) {
                let (left, right) = (nodes[2 * node], nodes[2 * node + 1])
                nodes[node] = left == right ? left : Self.merge(left, right)
            }
        }
        self.nodes = nodes.map { CharacterCoverage(ranges: $0) }
    }

    /// The first leaf at or after `position` whose coverage contains `codePoint` (any code point when `nil`).
    func first(from position: Int, containing codePoint: UInt32?) -> Int? {
        guard position < count else { return nil }
        return search(node: 1, low: 0, high: size, from: position, codePoint)
    }

    private func search(node: Int, low: Int, high: Int, from position: Int, _ codePoint: UInt32?) -> Int? {
        guard high > position, low < count else { return nil }
        if let codePoint {
            guard nodes[node].contains(codePoint) else { return nil }
        } else if nodes[node].isEmpty {
            return nil
        }
        if node >= size { return low }
        let middle = (low + high) / 2
        return search(node: 2 * node, low: low, high: middle, from: position, codePoint)
            ?? search(node: 2 * node + 1, low: middle, high: high, from: position, codePoint)
    }

    /// The union of two flattened range lists, as sorted, disjoint ranges (adjacent ones joined).
    static func merge(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var result: [UInt32] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let takeA = j >= b.count || (i < a.count && a[i] <= b[j])
            let (start, end) = takeA ? (a[i], a[i + 1]) : (b[j], b[j + 1])
            if takeA { i += 2 } else { j += 2 }
            if let last = result.last, UInt64(start) <= UInt64(last) + 1 {
                if end > last { result[result.count - 1] = end }
            } else {
                result.append(start)
                result.append(end)
            }
        }
        return result
    }
}

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
/// The tables are a ``TextCoverageSection``: read in place from the registry's mapped index
/// file when the index is served from it (a warm start, and after a cold start), else laid out
/// in memory from the index's families by the same code that writes the file, and read alike.
///
/// What the index answers is a superset of the families a cluster fits (a family's union may
/// cover a cluster no single face of it covers): ``FallbackPlan`` checks each candidate's faces as
/// before, in the same order, so the family chosen is the one a scan of every family would choose.
final class CoverageIndex: Sendable {
    /// The index generation it was built from.
    let generation: Int
    /// The index whose families the positions name.
    private let index: FontIndex
    /// The tables.
    private let section: TextCoverageSection
    /// Whether the tables are read in place from the mapped index file (none built in memory).
    let isMapped: Bool
    /// Every code point some face maps.
    let union: Ranges
    /// Per class, the tree over its members' coverage of all faces, and of colour faces.
    private let trees: [CoverageTree]
    private let colorTrees: [CoverageTree]
    /// Per class, its members (family positions) and their base positions, ascending.
    private let members: [TextCoverageSection.Extent]
    private let memberBase: [TextCoverageSection.Extent]

    /// The design registry-wide fallback prefers (its raw value indexes ``TextCoverageSection/designWords``).
    enum Design: Int, CaseIterable, Sendable {
        case sans = 0
        case serif = 1
        case mono = 2

        /// The word the family name is searched for.
        var word: String { TextCoverageSection.designWords[rawValue] }

        /// The design a stack asks for: serif or monospace when it names them, else sans.
        static func of(_ families: [String]) -> Design {
            families.contains { $0.lowercased() == "serif" }
                ? .serif : families.contains { $0.lowercased() == "monospace" } ? .mono : .sans
        }
    }

    /// Flat ranges of the tables: the union of every face's coverage.
    struct Ranges: Sendable {
        let section: TextCoverageSection
        let extent: TextCoverageSection.Extent

        /// Whether a face maps the code point.
        func contains(_ codePoint: UInt32) -> Bool { section.contains(extent, codePoint) }

        /// Whether a face maps the scalar.
        func contains(_ scalar: Unicode.Scalar) -> Bool { contains(scalar.value) }
    }

    /// The index of an index's families and their faces' coverage: read in place from the mapped
    /// index file when it has the tables, else laid out in memory.
    ///
    /// - Parameter index: the faces; only the public ``FontIndex`` API is read.
    init(_ index: FontIndex) {
        generation = index.generation
        self.index = index
        let section: TextCoverageSection
        if case .mapped(let inPlace) = index.storage, let mapped = inPlace as? MappedIndex,
            let inFile = mapped.snapshot.textCoverage
        {
            section = inFile
            isMapped = true
        } else {
            let families = index.families
            section = TextCoverageSection(words: TextCoverageSection.words(of: families), familyCount: families.count)
            isMapped = false
        }
        self.section = section
        typealias L = TextCoverageSection.List
        let classes = 0..<TextCoverageSection.classCount
        union = Ranges(section: section, extent: section.list(L.union))
        members = classes.map { section.list(L.members + $0) }
        memberBase = classes.map { section.list(L.memberBase + $0) }
        let counts = members.map(\.count)
        trees = classes.map { [section] in
            CoverageTree(section: section, nodes: section.list(L.trees + $0), count: counts[$0])
        }
        colorTrees = classes.map { [section] in
            CoverageTree(
                section: section, nodes: section.list(L.trees + TextCoverageSection.classCount + $0), count: counts[$0])
        }
    }

    /// The family at a position the tables name (`nil` for one outside the index: damage noted by a mapped file).
    private func family(_ position: UInt32) -> FamilyEntry? { index.family(at: Int(position)) }

    /// Every family in registry-wide order for a design.
    func ranked(_ design: Design) -> some Sequence<FamilyEntry> {
        let list = section.list(TextCoverageSection.List.ranked + design.rawValue)
        return (0..<list.count).lazy.compactMap { self.family(self.section.word(list.first + $0)) }
    }

    /// The families of a Han region, those of the asked design (serif or not) first, then by name.
    func regionalFamilies(_ region: String, serif: Bool) -> [FamilyEntry] {
        guard let r = TextCoverageSection.regions.firstIndex(of: region) else { return [] }
        let list = section.list(TextCoverageSection.List.regional + 2 * r + (serif ? 1 : 0))
        return (0..<list.count).compactMap { family(section.word(list.first + $0)) }
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
        private var from: UInt32 = 0

        init(index: CoverageIndex, codePoint: UInt32?, design: Design, colorOnly: Bool) {
            self.index = index
            self.codePoint = codePoint
            self.design = design
            self.colorOnly = colorOnly
        }

        mutating func next() -> FamilyEntry? {
            let bit = 1 << design.rawValue
            let section = index.section
            while bucket < 2 {
                // The first member at or after `from` of the bucket's four classes.
                var best: (base: UInt32, family: UInt32)?
                for kind in 0..<8 where (kind & bit != 0) == (bucket == 0) {
                    let tree = colorOnly ? index.colorTrees[kind] : index.trees[kind]
                    let bases = index.memberBase[kind]
                    // The first member whose base position is at least `from`, by bisection.
                    var low = 0
                    var high = bases.count
                    while low < high {
                        let middle = (low + high) / 2
                        if section.word(bases.first + middle) < from { low = middle + 1 } else { high = middle }
                    }
                    guard let leaf = tree.first(from: low, containing: codePoint) else { continue }
                    let base = section.word(bases.first + leaf)
                    if best == nil || base < best!.base {
                        best = (base, section.word(index.members[kind].first + leaf))
                    }
                }
                if let best {
                    from = best.base + 1
                    // A position outside the index (a damaged file) is skipped.
                    if let family = index.family(best.family) { return family }
                    continue
                }
                bucket += 1
                from = 0
            }
            return nil
        }
    }
}

/// A tree of a ``TextCoverageSection`` over leaves of coverage, each node the union of its
/// leaves: finds the first leaf at or after a position that contains a code point.
struct CoverageTree: Sendable {
    /// The tables.
    let section: TextCoverageSection
    /// The node list: per node, the first word and value count of its ranges.
    let nodes: TextCoverageSection.Extent
    /// The number of leaves (the class's members).
    let count: Int
    /// Leaves start at `size` (a power of two at least `count`); node `i` has children `2i`, `2i + 1`.
    private let size: Int

    init(section: TextCoverageSection, nodes: TextCoverageSection.Extent, count: Int) {
        self.section = section
        self.nodes = nodes
        self.count = count
        size = nodes.count / 4
    }

    /// The ranges of node `i`.
    @inline(__always)
    private func ranges(_ node: Int) -> TextCoverageSection.Extent { section.ranges(nodes.first + node * 2) }

    /// The first leaf at or after `position` whose coverage contains `codePoint` (any code point when `nil`).
    func first(from position: Int, containing codePoint: UInt32?) -> Int? {
        guard position < count, size > 0 else { return nil }
        return search(node: 1, low: 0, high: size, from: position, codePoint)
    }

    private func search(node: Int, low: Int, high: Int, from position: Int, _ codePoint: UInt32?) -> Int? {
        guard high > position, low < count else { return nil }
        let ranges = self.ranges(node)
        if let codePoint {
            guard section.contains(ranges, codePoint) else { return nil }
        } else if ranges.count == 0 {
            return nil
        }
        if node >= size { return low }
        let middle = (low + high) / 2
        return search(node: 2 * node, low: low, high: middle, from: position, codePoint)
            ?? search(node: 2 * node + 1, low: middle, high: high, from: position, codePoint)
    }
}

extension TextCoverageSection {
    /// The section's words for an index's families (the layout in `TextCoverageSection.swift`).
    ///
    /// Registry-wide fallback takes the first family, in its order (the design the stack names
    /// first, then the shorter name, then the name), with a face that covers the cluster. The
    /// order is the design bucket then a base order that does not depend on the design, so the
    /// families are split into eight classes by which of the design words their names contain;
    /// each class keeps its families in base order as the leaves of a tree whose nodes hold the
    /// union of their leaves' coverage. Equal range lists (a node and its only child, a family and
    /// its one face) are stored once.
    ///
    /// - Parameter families: the families, in the index's order (their positions are the file's).
    /// - Returns: the words.
    static func words(of families: [FamilyEntry]) -> [UInt32] {
        var builder = Builder()
        builder.lay(families)
        return builder.words
    }

    /// The working state of ``words(of:)``: the directory is reserved first, the lists and the
    /// range values appended after it.
    private struct Builder {
        var words = [UInt32](repeating: 0, count: 2 + 2 * TextCoverageSection.listCount)
        /// Where each range list already stored begins.
        private var stored: [[UInt32]: Int] = [:]

        /// Appends list `n` and records it in the directory.
        mutating func put(list n: Int, _ values: [UInt32]) {
            words[2 + 2 * n] = UInt32(words.count)
            words[3 + 2 * n] = UInt32(values.count)
            words.append(contentsOf: values)
        }

        /// The first word of a range list, appended unless an equal one is stored.
        mutating func ranges(_ values: [UInt32]) -> UInt32 {
            if values.isEmpty { return 0 }
            if let known = stored[values] { return UInt32(known) }
            let first = words.count
            words.append(contentsOf: values)
            stored[values] = first
            return UInt32(first)
        }

        mutating func lay(_ families: [FamilyEntry]) {
            words[0] = UInt32(families.count)
            words[1] = UInt32(TextCoverageSection.listCount)
            let lowered = families.map { $0.name.lowercased() }
            // Base order: the shorter name, then the lowercased name, then the index's order.
            let base = families.indices.sorted {
                (families[$0].name.count, lowered[$0], $0) < (families[$1].name.count, lowered[$1], $1)
            }
            var basePosition = [UInt32](repeating: 0, count: families.count)
            for (position, family) in base.enumerated() { basePosition[family] = UInt32(position) }
            func inBucket(_ name: String, _ design: Int) -> Bool {
                name.contains(TextCoverageSection.designWords[design]) && (design != 0 || !name.contains("mono"))
            }
            let classes = lowered.map { name in (0..<3).reduce(0) { $0 | (inBucket(name, $1) ? 1 << $1 : 0) } }
            for design in 0..<3 {
                let first = base.filter { classes[$0] & 1 << design != 0 }
                let second = base.filter { classes[$0] & 1 << design == 0 }
                put(list: List.ranked + design, (first + second).map(UInt32.init))
            }
            var members = [[Int]](repeating: [], count: TextCoverageSection.classCount)
            for family in base { members[classes[family]].append(family) }
            for kind in 0..<TextCoverageSection.classCount {
                put(list: List.members + kind, members[kind].map(UInt32.init))
                put(list: List.memberBase + kind, members[kind].map { basePosition[$0] })
            }
            for (r, region) in TextCoverageSection.regions.enumerated() {
                let names = families.indices.filter { HanRegion.family(families[$0].name, isOf: region) }
                for (s, serif) in [false, true].enumerated() {
                    func key(_ i: Int) -> (Int, String) {
                        (lowered[i].contains("serif") == serif ? 0 : 1, families[i].name)
                    }
                    put(list: List.regional + 2 * r + s, names.sorted { key($0) < key($1) }.map(UInt32.init))
                }
            }
            var all: [[UInt32]] = []
            var color: [[UInt32]] = []
            all.reserveCapacity(families.count)
            color.reserveCapacity(families.count)
            for family in families {
                var any: [UInt32] = []
                var colored: [UInt32] = []
                for face in family.faces {
                    let ranges = face.coverage.ranges
                    any = any == ranges ? any : Self.merge(any, ranges)
                    if face.isColor { colored = colored == ranges ? colored : Self.merge(colored, ranges) }
                }
                all.append(any)
                color.append(colored)
            }
            let union = all.reduce(into: []) { $0 = Self.merge($0, $1) }
            put(list: List.union, union)
            for (tree, leaves) in [all, color].enumerated() {
                for kind in 0..<TextCoverageSection.classCount {
                    let nodes = Self.tree(members[kind].map { leaves[$0] })
                    var refs: [UInt32] = []
                    refs.reserveCapacity(nodes.count * 2)
                    for node in nodes { refs += [ranges(node), UInt32(node.count)] }
                    put(list: List.trees + tree * TextCoverageSection.classCount + kind, refs)
                }
            }
        }

        /// The nodes of a tree over leaves: 2 × size (a power of two, at least the leaf count and
        /// 1), node `i` the union of nodes `2i` and `2i + 1`, the leaves from `size` on (node 0 unused).
        static func tree(_ leaves: [[UInt32]]) -> [[UInt32]] {
            var size = 1
            while size < leaves.count { size *= 2 }
            var nodes = [[UInt32]](repeating: [], count: 2 * size)
            for (i, leaf) in leaves.enumerated() { nodes[size + i] = leaf }
            if size > 1 {
                for node in stride(from: size - 1, through: 1, by: -1) {
                    let (left, right) = (nodes[2 * node], nodes[2 * node + 1])
                    nodes[node] = left == right ? left : merge(left, right)
                }
            }
            return nodes
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
}

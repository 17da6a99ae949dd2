/// The registry-wide coverage index `ResolveText`'s fallback reads (which families cover which
/// code points), laid out as little-endian `UInt32`s: the text coverage section of snapshot
/// layout 8, read in place from the mapped index file, or from words built in memory for an
/// index that has no such file (the same reader either way, so the answers cannot differ).
///
/// ```
/// 0 family count F (the file's)   1 list count (46)   2… the list directory: per list, its first
///   word and its count (both in words, from the section's start); then the lists' words:
/// lists 0…2   per design (sans, serif, mono): every family position in registry-wide order
/// lists 3…10  per class (bit 0 "sans", bit 1 "serif", bit 2 "mono" in the lowercased name):
///             its family positions in base order (shorter name, lowercased name, position)
/// lists 11…18 per class: the base position of each of its members, ascending
/// lists 19…28 per Han region (JP, KR, SC, TC, HK): its families sans-first, then serif-first
/// list 29     every code point some face maps: flat ranges (start, end inclusive)
/// lists 30…45 per class, the tree over its members' coverage of every face (30…37), then of
///             colour faces only (38…45): 2 × size nodes (size a power of two, at least the
///             member count; node i has children 2i and 2i + 1, leaves from size on), each the
///             first word and value count of its flat ranges, the union of its leaves'
/// ```
///
/// Opening checks the header and that every list lies inside the section with the count its
/// kind needs (constant work); ``checkWhole()`` also checks every family position and every
/// node's ranges (the registry's own file, before a warm start serves it). Every read is
/// bounds-checked besides: a value outside the section reads as 0 and no value can trap.
// Safe to share across threads: the words are immutable and kept alive by `owner`.
package struct TextCoverageSection: @unchecked Sendable {
    /// The section's bytes.
    private let bytes: UnsafeRawBufferPointer
    /// What keeps `bytes` alive: the mapped snapshot, or the words built in memory.
    private let owner: AnyObject
    /// The number of families the positions refer to.
    let familyCount: Int

    /// The number of lists.
    static let listCount = 46
    /// The first list of each kind.
    enum List {
        static let ranked = 0, members = 3, memberBase = 11, regional = 19, union = 29, trees = 30
    }
    /// The number of design classes (three bits).
    static let classCount = 8
    /// The words that put a family in a design's class, in the design's order (sans, serif, mono).
    static let designWords = ["sans", "serif", "mono"]
    /// The Han regions of the regional lists, in their order.
    static let regions = ["JP", "KR", "SC", "TC", "HK"]

    /// A list: its first word and its count of words.
    struct Extent {
        /// The first word, from the section's start.
        let first: Int
        /// The number of words.
        let count: Int
    }

    /// The section of a snapshot's bytes, its header and list directory checked.
    ///
    /// - Parameters:
    ///   - section: the section's bytes.
    ///   - owner: what keeps them alive.
    ///   - familyCount: the number of families of the file.
    ///   - path: the file, for errors.
    /// - Throws: ``SnapshotError/outOfBounds(path:what:)`` naming the part that does not hold.
    init(section: UnsafeRawBufferPointer, owner: AnyObject, familyCount: Int, path: String) throws(SnapshotError) {
        bytes = section
        self.owner = owner
        self.familyCount = familyCount
        let words = section.count / 4
        func refuse(_ what: String) -> SnapshotError { .outOfBounds(path: path, what: "the text coverage's " + what) }
        guard words >= 2 + 2 * Self.listCount, Int(word(0)) == familyCount, Int(word(1)) == Self.listCount else {
            throw refuse("header")
        }
        for list in 0..<Self.listCount {
            let extent = self.list(list)
            guard extent.first >= 2 + 2 * Self.listCount, extent.count <= words - extent.first else {
                throw refuse("list \(list)")
            }
        }
        for design in 0..<3 where list(List.ranked + design).count != familyCount { throw refuse("ranked families") }
        var members = 0
        for kind in 0..<Self.classCount {
            let count = list(List.members + kind).count
            members += count
            guard list(List.memberBase + kind).count == count else { throw refuse("class \(kind)") }
            for tree in [kind, kind + Self.classCount] {
                let nodes = list(List.trees + tree).count / 4
                guard list(List.trees + tree).count % 4 == 0, nodes >= max(1, count), nodes & (nodes - 1) == 0 else {
                    throw refuse("tree \(tree)")
                }
            }
        }
        guard members == familyCount, list(List.union).count % 2 == 0 else { throw refuse("classes") }
    }

    /// The words built in memory for an index without a section (``words(of:)``).
    init(words: [UInt32], familyCount: Int) {
        let owned = OwnedWords(words)
        // Built by this program: the checks cannot fail.
        do {
            try self.init(section: owned.bytes, owner: owned, familyCount: familyCount, path: "<memory>")
        } catch {
            preconditionFailure("the text coverage built in memory fails its own checks: \(error)")
        }
    }

    /// Checks what opening does not: every family position inside the family table and every
    /// node's ranges inside the section, an even number of values.
    ///
    /// - Parameter path: the file, for errors.
    /// - Throws: ``SnapshotError/outOfBounds(path:what:)``.
    func checkWhole(path: String) throws(SnapshotError) {
        // Family positions and base positions alike are below the family count.
        for list in List.ranked..<List.union {
            let extent = self.list(list)
            for i in 0..<extent.count where Int(word(extent.first + i)) >= familyCount {
                throw .outOfBounds(path: path, what: "the text coverage's family positions")
            }
        }
        guard holds(list(List.union)) else { throw .outOfBounds(path: path, what: "the text coverage's union") }
        for tree in 0..<2 * Self.classCount {
            let extent = list(List.trees + tree)
            for node in 0..<extent.count / 2 where !holds(ranges(extent.first + node * 2)) {
                throw .outOfBounds(path: path, what: "the text coverage's tree nodes")
            }
        }
    }

    // MARK: Reading

    /// The word at `index`, or 0 outside the section.
    @inline(__always)
    func word(_ index: Int) -> UInt32 {
        guard index >= 0 && index < bytes.count / 4 else { return 0 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
    }

    /// List `n` of the directory.
    func list(_ n: Int) -> Extent {
        Extent(first: Int(word(2 + 2 * n)), count: Int(word(3 + 2 * n)))
    }

    /// The flat ranges a node (or the union) refers to: the first word and value count stored at `at`.
    @inline(__always)
    func ranges(_ at: Int) -> Extent { Extent(first: Int(word(at)), count: Int(word(at + 1))) }

    /// Whether the ranges lie inside the section with an even number of values.
    func holds(_ ranges: Extent) -> Bool {
        ranges.count % 2 == 0 && ranges.first >= 0 && ranges.count <= bytes.count / 4 - ranges.first
    }

    /// Whether flat ranges contain a code point (a bisection); ranges outside the section contain none.
    func contains(_ ranges: Extent, _ codePoint: UInt32) -> Bool {
        guard holds(ranges) else { return false }
        var low = 0
        var high = ranges.count / 2
        while low < high {
            let middle = (low + high) / 2
            if word(ranges.first + middle * 2 + 1) < codePoint { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count / 2 && word(ranges.first + low * 2) <= codePoint
    }
}

/// Words built in memory, as the section reads them.
private final class OwnedWords {
    /// The words' bytes.
    let bytes: UnsafeRawBufferPointer
    /// The allocation, freed in `deinit`.
    private let storage: UnsafeMutableRawBufferPointer

    /// Copies `words` (little-endian) into an allocation of their own.
    init(_ words: [UInt32]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(4, words.count * 4), alignment: 8)
        for (i, word) in words.enumerated() {
            storage.storeBytes(of: word.littleEndian, toByteOffset: i * 4, as: UInt32.self)
        }
        self.storage = storage
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<words.count * 4])
    }

    deinit { storage.deallocate() }
}

/// The code points a face maps (its cmap) and the languages fontconfig says it supports.
///
/// Kept compactly as sorted, disjoint, inclusive ranges in one flat array of start/end pairs,
/// searched by bisection: a Latin face costs a few hundred bytes, Noto Sans CJK (about 65,000
/// code points) about 1,300 ranges, 10 KiB. Languages are fontconfig's orthography-based
/// language tags (`en`, `ja`, `zh-cn`, …), as `FcFreeTypeQueryFace` computes them.
public struct CharacterCoverage: Sendable, Hashable {
    /// Start and end (inclusive) of each range, flattened: `[start0, end0, start1, end1, …]`.
    public let ranges: [UInt32]
    /// fontconfig's language tags the face covers, sorted.
    public var languages: [String] { languageList.split(separator: " ").map(String.init) }
    /// The tags joined by spaces: one allocation per face instead of one array slot per tag.
    private let languageList: String

    /// No code points and no languages: a face read before coverage was recorded, or built by hand.
    public static let empty = CharacterCoverage(evenRanges: [], joined: "")

    /// Creates coverage from flat, sorted, disjoint start/end pairs.
    ///
    /// - Parameters:
    ///   - ranges: `[start0, end0, start1, end1, …]`, sorted and disjoint, ends inclusive.
    ///   - languages: fontconfig language tags.
    public init(ranges: [UInt32], languages: [String] = []) {
        self.init(evenRanges: ranges, joined: languages.joined(separator: " "))
    }

    /// Creates coverage from flat ranges and the language tags already joined by single spaces, as
    /// a snapshot stores them (no split and join per face); any other spacing is normalized as
    /// ``init(ranges:languages:)`` would.
    init(ranges: [UInt32], languageList: String) {
        var list = languageList
        let normal = list.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            if first == 0x20 || last == 0x20 { return false }
            for i in 1..<bytes.count where bytes[i] == 0x20 && bytes[i - 1] == 0x20 { return false }
            return true
        }
        self.init(
            evenRanges: ranges,
            joined: normal ? list : languageList.split(separator: " ").joined(separator: " "))
    }

    /// The one initializer that stores: an odd trailing value is dropped.
    private init(evenRanges ranges: [UInt32], joined: String) {
        self.ranges = ranges.count % 2 == 0 ? ranges : Array(ranges.dropLast())
        self.languageList = joined
    }

    /// Creates coverage from code points in any order (duplicates allowed).
    ///
    /// - Parameters:
    ///   - codePoints: the mapped code points.
    ///   - languages: fontconfig language tags.
    public init(codePoints: some Sequence<UInt32>, languages: [String] = []) {
        var flat: [UInt32] = []
        for point in codePoints.sorted() {
            if let last = flat.last, point <= last &+ 1 {
                if point == last &+ 1 { flat[flat.count - 1] = point }
                continue
            }
            flat.append(point)
            flat.append(point)
        }
        self.init(ranges: flat, languages: languages)
    }

    /// Whether the face has no recorded coverage.
    public var isEmpty: Bool { ranges.isEmpty }

    /// The number of ranges.
    public var rangeCount: Int { ranges.count / 2 }

    /// The number of code points covered.
    public var codePointCount: Int {
        stride(from: 0, to: ranges.count, by: 2).reduce(0) { $0 + Int(ranges[$1 + 1] - ranges[$1]) + 1 }
    }

    /// The heap bytes this coverage holds: the ranges, and the language tags' characters.
    public var memoryBytes: Int { ranges.count * 4 + languageList.utf8.count }

    /// Whether fontconfig's orthography for the tag is covered.
    public func supports(language tag: String) -> Bool { languages.contains(tag.lowercased()) }

    /// Whether the face maps this code point (a bisection over the ranges).
    public func contains(_ codePoint: UInt32) -> Bool {
        ranges.withUnsafeBufferPointer { flat in
            var low = 0
            var high = flat.count / 2
            while low < high {
                let middle = (low + high) / 2
                if flat[middle * 2 + 1] < codePoint {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low < flat.count / 2 && flat[low * 2] <= codePoint
        }
    }

    /// Whether the face maps this scalar.
    public func contains(_ scalar: Unicode.Scalar) -> Bool { contains(scalar.value) }

    /// Whether the face maps every scalar of a grapheme cluster a renderer must draw.
    ///
    /// Default-ignorable scalars (ZWJ, variation selectors, tag characters) are left out: a
    /// shaper draws nothing for them and many text faces do not map them.
    public func covers(_ cluster: Character) -> Bool {
        for scalar in cluster.unicodeScalars where !contains(scalar.value) && !Self.isIgnorable(scalar) {
            return false
        }
        return true
    }

    /// The scalars of `text` the face does not map, each once, in order of first appearance.
    public func missing(in text: String) -> [Unicode.Scalar] {
        var seen = Set<UInt32>()
        var result: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars where !Self.isIgnorable(scalar) && !contains(scalar) {
            if seen.insert(scalar.value).inserted { result.append(scalar) }
        }
        return result
    }

    /// Whether a shaper draws nothing for the scalar, so coverage need not include it.
    ///
    /// Most text is printable ASCII or other scalars below U+00AD, decided without a property lookup.
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0xAD { return false }
        // Per-cluster fallback asks this for every scalar a face lacks: the blocks between the
        // Default_Ignorable_Code_Point ranges (U+034F, U+061C, U+115F–1160, U+17B4–17B5,
        // U+180B–180F, U+200B–200F, U+202A–202E, U+2060–206F, U+3164, U+FE00–FE0F, …) need no
        // property lookup; Arabic, Indic, CJK and Hangul lie there.
        if Self.surelyPrintable.contains(where: { $0.contains(value) }) { return false }
        return scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .control
    }

    /// Ranges without a default-ignorable or control code point.
    private static let surelyPrintable: [Range<UInt32>] = [
        0x350..<0x61C, 0x61D..<0x115F, 0x1161..<0x17B4, 0x1810..<0x200B, 0x2070..<0x3164, 0x3165..<0xFE00,
        0xAE..<0x34F, 0x17B6..<0x180B,
    ]

    /// Equal when the ranges and languages are; two faces of one collection usually share storage.
    public static func == (lhs: CharacterCoverage, rhs: CharacterCoverage) -> Bool {
        lhs.ranges == rhs.ranges && lhs.languageList == rhs.languageList
    }

    /// Hashes the size and ends only, so hashing a face record stays cheap for a CJK face.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ranges.count)
        hasher.combine(ranges.first)
        hasher.combine(ranges.last)
        hasher.combine(languageList.utf8.count)
    }
}

/// Holds a face record's coverage without taking part in the record's equality or hash.
///
/// Coverage is a function of the file and face index, which the record compares already; a
/// record read from a mapped snapshot (which does not carry coverage) still equals the indexed one.
struct CoverageSlot: Sendable, Hashable {
    /// The coverage.
    var value: CharacterCoverage = .empty

    /// Always equal: see the type's documentation.
    static func == (lhs: CoverageSlot, rhs: CoverageSlot) -> Bool { true }

    /// Adds nothing to the hash.
    func hash(into hasher: inout Hasher) {}
}

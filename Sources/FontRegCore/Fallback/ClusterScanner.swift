/// Cuts UTF-8 text into grapheme clusters (UAX #29, as Swift's `Character`) at the scalar level,
/// for the text resolver's loop (issue 29 item 4).
///
/// A cluster of plain scalars, marks, controls, Hangul and Indic conjuncts (``ScalarClasses``) is found
/// here, with its UTF-8 and UTF-16 lengths, without a `Character`. A stretch with a hard scalar
/// (ZWJ sequences, flags, prepended marks, …) is handed back whole as a *piece* for
/// Swift's segmentation: it starts at the start of the cluster the hard scalar is in (a boundary
/// no rule looks across) and ends at the first sure boundary after it (two plain scalars, or a
/// control's edge), so Swift segments it as it would inside the whole text.
struct ClusterScanner {
    /// One step of the scan: a cluster found here, or a piece for Swift's segmentation.
    enum Item: Equatable {
        /// A cluster: its UTF-8 byte range, its UTF-16 length and its first scalar; `single`
        /// when that scalar is the whole cluster.
        case cluster(start: Int, end: Int, utf16: Int, first: UInt32, single: Bool)
        /// A stretch of one or more clusters Swift must cut: its UTF-8 byte range.
        case piece(start: Int, end: Int)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let classes: ScalarClasses.Table
    private var position = 0

    /// Scans `bytes` (valid UTF-8, as a `String` holds it) from the start.
    init(_ bytes: UnsafeBufferPointer<UInt8>, classes: ScalarClasses.Table = ScalarClasses.table) {
        self.bytes = bytes
        self.classes = classes
    }

    /// The scalar at a byte offset and its length in bytes.
    @inline(__always)
    func scalar(at offset: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(bytes[offset])
        if b0 < 0x80 { return (b0, 1) }
        let b1 = UInt32(bytes[offset + 1]) & 0x3F
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | b1, 2) }
        let b2 = UInt32(bytes[offset + 2]) & 0x3F
        if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | b1 << 6 | b2, 3) }
        let b3 = UInt32(bytes[offset + 3]) & 0x3F
        return ((b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
    }

    /// The next cluster or piece, or `nil` at the end.
    mutating func next() -> Item? {
        let count = bytes.count
        guard position < count else { return nil }
        let start = position
        let (first, firstLength) = scalar(at: start)
        let firstClass = classes(first)
        if firstClass == ScalarClasses.hard { return piece(from: start, hardAt: start) }
        var end = start + firstLength
        if firstClass == ScalarClasses.control {
            // A control stands alone (GB4, GB5), but CR LF is one cluster (GB3).
            if first == 0x0D, end < count, bytes[end] == 0x0A {
                position = end + 1
                return .cluster(start: start, end: end + 1, utf16: 2, first: first, single: false)
            }
            position = end
            return .cluster(start: start, end: end, utf16: 1, first: first, single: true)
        }
        var utf16 = first >= 0x10000 ? 2 : 1
        // GB9c: 0 outside a conjunct chain, 1 after its consonant (and chain marks), 2 after a linker.
        var chain = firstClass == ScalarClasses.consonant ? 1 : 0
        // The class of the scalar before, when it is Hangul (GB6–8 join adjacent jamo only).
        var hangul = firstClass
        while end < count {
            let (value, length) = scalar(at: end)
            let valueClass = classes(value)
            switch valueClass {
            case ScalarClasses.mark:
                chain = 0
                hangul = ScalarClasses.mark
            case ScalarClasses.chainMark:
                hangul = ScalarClasses.mark
            case ScalarClasses.linker:
                if chain != 0 { chain = 2 }
                hangul = ScalarClasses.mark
            case ScalarClasses.consonant where chain == 2:
                chain = 1
                hangul = ScalarClasses.consonant
            case ScalarClasses.hangulL...ScalarClasses.hangulLVT where ScalarClasses.hangulJoins(hangul, valueClass):
                hangul = valueClass
            case ScalarClasses.hard:
                return piece(from: start, hardAt: end)
            default:
                // A plain scalar, a consonant outside a chain or a control: a boundary before it.
                position = end
                return .cluster(start: start, end: end, utf16: utf16, first: first, single: end == start + firstLength)
            }
            utf16 += value >= 0x10000 ? 2 : 1
            end += length
        }
        position = end
        return .cluster(start: start, end: end, utf16: utf16, first: first, single: end == start + firstLength)
    }

    /// A piece from `start` (a cluster's start) past the hard scalar at `hard` to the first sure boundary.
    private mutating func piece(from start: Int, hardAt hard: Int) -> Item {
        let count = bytes.count
        var (previous, length) = scalar(at: hard)
        var previousClass = ScalarClasses.hard
        var offset = hard + length
        while offset < count {
            let (value, length) = scalar(at: offset)
            let valueClass = classes(value)
            if Self.isSureBoundary(previousClass, previous, valueClass, value) { break }
            previous = value
            previousClass = valueClass
            offset += length
        }
        position = offset
        return .piece(start: start, end: offset)
    }

    /// Whether UAX #29 breaks between two scalars whatever comes before them: between two plain
    /// scalars or consonants (``ScalarClasses``), before a control (GB5), and after a control
    /// but CR before LF (GB3, GB4).
    private static func isSureBoundary(_ before: UInt8, _ beforeValue: UInt32, _ after: UInt8, _ afterValue: UInt32)
        -> Bool
    {
        if before == ScalarClasses.control { return !(beforeValue == 0x0D && afterValue == 0x0A) }
        if after == ScalarClasses.control { return true }
        return before <= ScalarClasses.consonant && after <= ScalarClasses.consonant
    }

    /// The UTF-8 offsets of every cluster boundary of `text` after its start (the end included),
    /// pieces cut by Swift: what the resolver's loop cuts, for tests.
    static func boundaries(of text: String) -> [Int] {
        var copy = text
        return copy.withUTF8 { bytes in
            var scanner = ClusterScanner(bytes)
            var result: [Int] = []
            while let item = scanner.next() {
                switch item {
                case .cluster(_, let end, _, _, _):
                    result.append(end)
                case .piece(let start, let end):
                    var offset = start
                    for cluster in String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) {
                        offset += cluster.utf8.count
                        result.append(offset)
                    }
                }
            }
            return result
        }
    }
}

/// The scalars of a stretch of valid UTF-8, decoded as they are read (a cluster of the scan).
struct UTF8Scalars: Sequence, IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset: Int
    private let end: Int

    /// The scalars of `bytes[start..<end]`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.bytes = bytes
        offset = start
        self.end = end
    }

    /// The next scalar, or `nil` at the end.
    @inline(__always)
    mutating func next() -> Unicode.Scalar? {
        guard offset < end else { return nil }
        let b0 = UInt32(bytes[offset])
        var value: UInt32
        if b0 < 0x80 {
            value = b0
            offset += 1
        } else if b0 < 0xE0 {
            value = (b0 & 0x1F) << 6 | UInt32(bytes[offset + 1]) & 0x3F
            offset += 2
        } else if b0 < 0xF0 {
            value = (b0 & 0x0F) << 12 | (UInt32(bytes[offset + 1]) & 0x3F) << 6 | UInt32(bytes[offset + 2]) & 0x3F
            offset += 3
        } else {
            value =
                (b0 & 0x07) << 18 | (UInt32(bytes[offset + 1]) & 0x3F) << 12 | (UInt32(bytes[offset + 2]) & 0x3F) << 6
                | UInt32(bytes[offset + 3]) & 0x3F
            offset += 4
        }
        return Unicode.Scalar(value).unsafelyUnwrapped
    }
}

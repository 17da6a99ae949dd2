/// What the text resolver's own grapheme loop needs to know of a scalar (issue 29 item 4).
///
/// UAX #29 joins two scalars only by a few rules. ``ClusterScanner`` applies the ones common
/// text needs itself: a mark (Extend or SpacingMark) joins the scalar before it (GB9, GB9a); a
/// control stands alone but CR LF (GB3–5); Hangul jamo and syllables join as GB6–8 say; a
/// consonant after a linker (a virama) and the marks between joins its conjunct (GB9c). Every
/// other joining rule needs a *hard* scalar (ZWJ, a regional indicator, a Prepend, format
/// characters, scalars past plane 1, Brahmic scripts of plane 1), and a stretch holding one goes
/// through Swift's segmentation.
///
/// Marks and consonants are classified by asking Swift's segmentation itself (a mark joins the
/// letter before it and breaks before the letter after; a consonant joins `क्`), so the loop
/// breaks where Swift does. A scalar is plain by its properties: not a mark, control, format
/// character, separator, surrogate, private-use or unassigned scalar, nor one of the hard ones
/// above; between two plain scalars UAX #29 always breaks, as every joining rule needs one of the
/// two to be special. The table is built on first use, two levels of 256-scalar pages.
enum ScalarClasses {
    /// Breaks from its neighbours unless they are marks (GCB Other, and not an InCB consonant).
    static let plain: UInt8 = 0
    /// Like ``plain``, and an InCB consonant: joins a conjunct after a linker (GB9c).
    static let consonant: UInt8 = 1
    /// Joins the scalar before it (Extend or SpacingMark) and is not InCB Extend: it ends a conjunct chain.
    static let mark: UInt8 = 2
    /// A mark that is InCB Extend: a conjunct chain goes on through it.
    static let chainMark: UInt8 = 3
    /// A mark that is an InCB linker (Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam viramas).
    static let linker: UInt8 = 4
    /// A C0 or C1 control: a cluster of its own, except CR LF.
    static let control: UInt8 = 5
    /// Anything else: the stretch around it goes through Swift's segmentation.
    static let hard: UInt8 = 6
    /// Hangul jamo and syllables by Grapheme_Cluster_Break (GB6–8): leading, vowel, trailing
    /// jamo, LV and LVT syllables.
    static let hangulL: UInt8 = 7
    static let hangulV: UInt8 = 8
    static let hangulT: UInt8 = 9
    static let hangulLV: UInt8 = 10
    static let hangulLVT: UInt8 = 11

    /// Whether UAX #29 joins two Hangul scalars (GB6: L × L V LV LVT; GB7: LV V × V T; GB8: LVT T × T).
    @inline(__always)
    static func hangulJoins(_ before: UInt8, _ after: UInt8) -> Bool {
        switch before {
        case hangulL: return after == hangulL || after == hangulV || after == hangulLV || after == hangulLVT
        case hangulV, hangulLV: return after == hangulV || after == hangulT
        case hangulT, hangulLVT: return after == hangulT
        default: return false
        }
    }

    /// The scalars the table holds; those past it are ``hard``.
    static let tableLimit: UInt32 = 0x20000

    /// Set in an entry when a shaper draws nothing for the scalar (``CharacterCoverage/isIgnorable(_:)``).
    static let ignorableBit: UInt8 = 0x80
    /// Set in an entry when the scalar has default emoji presentation (``ClusterKind``).
    static let emojiPresentationBit: UInt8 = 0x40
    /// Set in an entry when the scalar is ideographic (``ClusterKind``).
    static let ideographicBit: UInt8 = 0x20
    /// The bits of an entry that hold the class.
    static let classMask: UInt8 = 0x1F

    /// The table: `pages[value >> 8]` is the offset of the value's 256-entry page in `entries`.
    /// Both are allocated once for the process's life (the table is a `static let`), so a look-up
    /// is two loads, with no retain and no bounds check.
    struct Table: @unchecked Sendable {
        let pages: UnsafePointer<UInt32>
        let entries: UnsafePointer<UInt8>

        /// The class of a scalar value.
        @inline(__always)
        func callAsFunction(_ value: UInt32) -> UInt8 {
            guard value < ScalarClasses.tableLimit else { return ScalarClasses.hard }
            return entries[Int(pages[Int(value >> 8)] | (value & 0xFF))] & ScalarClasses.classMask
        }

        /// Whether the scalar has default emoji presentation (as its `properties.isEmojiPresentation`).
        @inline(__always)
        func isEmojiPresentation(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            guard value < ScalarClasses.tableLimit else { return scalar.properties.isEmojiPresentation }
            return entries[Int(pages[Int(value >> 8)] | (value & 0xFF))] & ScalarClasses.emojiPresentationBit != 0
        }

        /// Whether the scalar is ideographic (as its `properties.isIdeographic`).
        @inline(__always)
        func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            guard value < ScalarClasses.tableLimit else { return scalar.properties.isIdeographic }
            return entries[Int(pages[Int(value >> 8)] | (value & 0xFF))] & ScalarClasses.ideographicBit != 0
        }

        /// Whether a shaper draws nothing for the scalar, so coverage need not include it.
        @inline(__always)
        func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            guard value < ScalarClasses.tableLimit else { return CharacterCoverage.isIgnorable(scalar) }
            return entries[Int(pages[Int(value >> 8)] | (value & 0xFF))] & ScalarClasses.ignorableBit != 0
        }
    }

    /// The table, from the built-in pages and entries (``builtInPages``, ``builtInEntries``,
    /// ScalarClassTable.swift), copied once to storage kept for the process's life.
    static let table: Table = {
        let pageStorage = UnsafeMutablePointer<UInt32>.allocate(capacity: builtInPages.count)
        for (position, offset) in builtInPages.enumerated() {
            (pageStorage + position).initialize(to: UInt32(offset) << 8)
        }
        let entryStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: builtInEntries.count)
        entryStorage.initialize(from: builtInEntries, count: builtInEntries.count)
        return Table(pages: pageStorage, entries: entryStorage)
    }()

    /// Derives the table from Swift's scalar properties and segmentation (some 300 million
    /// instructions, so it is built into the source: ClusterScannerTests checks that the built-in
    /// table is this one, and writes ScalarClassTable.swift afresh when asked).
    ///
    /// - Returns: per 256-scalar page the index of its entries' page (pages deduplicated), and the entries.
    static func derive() -> (pages: [UInt16], entries: [UInt8]) {
        var pages: [UInt16] = []
        var entries: [UInt8] = []
        var seen: [[UInt8]: UInt16] = [:]
        for page in 0..<(tableLimit >> 8) {
            let values = (0..<UInt32(256)).map { low in
                let value = page << 8 | low
                guard let scalar = Unicode.Scalar(value) else { return classify(value) }
                var entry = classify(value)
                if CharacterCoverage.isIgnorable(scalar) { entry |= ignorableBit }
                if scalar.properties.isEmojiPresentation { entry |= emojiPresentationBit }
                if scalar.properties.isIdeographic { entry |= ideographicBit }
                return entry
            }
            if let index = seen[values] {
                pages.append(index)
            } else {
                let index = UInt16(entries.count >> 8)
                seen[values] = index
                entries.append(contentsOf: values)
                pages.append(index)
            }
        }
        return (pages, entries)
    }

    /// Whether Swift's segmentation makes one cluster of these scalars.
    private static func oneCluster(_ scalars: Unicode.Scalar...) -> Bool {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view).count == 1
    }

    /// The class of one scalar value below ``tableLimit``.
    static func classify(_ value: UInt32) -> UInt8 {
        if value < 0x80 { return value < 0x20 || value == 0x7F ? control : plain }
        guard let scalar = Unicode.Scalar(value) else { return hard }
        if (0x80...0x9F).contains(value) { return control }
        // Hangul by Grapheme_Cluster_Break (GB6–8); the unassigned rest of its blocks is left to Swift.
        if (0x1100...0x115F).contains(value) || (0xA960...0xA97C).contains(value) { return hangulL }
        if (0x1160...0x11A7).contains(value) || (0xD7B0...0xD7C6).contains(value) { return hangulV }
        if (0x11A8...0x11FF).contains(value) || (0xD7CB...0xD7FB).contains(value) { return hangulT }
        if (0xAC00...0xD7A3).contains(value) { return (value - 0xAC00) % 28 == 0 ? hangulLV : hangulLVT }
        // ZWJ (GB11), regional indicators (GB12–13), Thai and Lao SARA AM, the Brahmic scripts
        // of plane 1 (Prepend letters, SpacingMark exceptions): Swift's job.
        if (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xAC00...0xD7FF).contains(value)
            || (0x3130...0x318F).contains(value) || (0xFFA0...0xFFDF).contains(value) || value == 0x200D
            || (0x1F1E6...0x1F1FF).contains(value) || (0x11000...0x11FFF).contains(value) || value == 0x0D4E
            || value == 0x0E33 || value == 0x0EB3
        {
            return hard
        }
        let properties = scalar.properties
        let isMark: Bool
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: isMark = true
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return hard
        default: isMark = properties.isGraphemeExtend || properties.isEmojiModifier
        }
        let a: Unicode.Scalar = "a"
        let ka: Unicode.Scalar = "\u{0915}"
        let virama: Unicode.Scalar = "\u{094D}"
        if !isMark {
            // A letter of a script with conjuncts that joins `क्` is an InCB consonant.
            if properties.generalCategory == .otherLetter, (0x0900...0x0DFF).contains(value) {
                return oneCluster(ka, virama, scalar) ? consonant : plain
            }
            // Elsewhere a letter that joins `क्` (none in Unicode 16) is left to Swift.
            if properties.generalCategory == .otherLetter, !(0x3400...0x9FFF).contains(value),
                !(0xA000...0xA4CF).contains(value), !(0x12000...0x1BFFF).contains(value), oneCluster(ka, virama, scalar)
            {
                return hard
            }
            return plain
        }
        // A mark must join the letter before it and break before the letter after it.
        guard oneCluster(a, scalar), !oneCluster(scalar, a), oneCluster(scalar, scalar) else { return hard }
        if oneCluster(ka, scalar, ka) {
            // A linker: the loop knows those of the six scripts; others go to Swift.
            return (0x0900...0x0DFF).contains(value) ? linker : hard
        }
        return oneCluster(ka, virama, scalar, ka) ? chainMark : mark
    }
}

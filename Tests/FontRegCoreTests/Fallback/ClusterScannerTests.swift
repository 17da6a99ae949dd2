import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// The text resolver's scalar-level cluster loop against Swift's segmentation (issue 29 item 4).
@Suite("The scalar-level cluster loop cuts text where Swift's segmentation does")
struct ClusterScannerTests {
    /// Swift's cluster boundaries of a text, as UTF-8 offsets after the start (the end included).
    static func swiftBoundaries(_ text: String) -> [Int] {
        var offset = 0
        return text.map { cluster in
            offset += cluster.utf8.count
            return offset
        }
    }

    /// The benchmark's texts (scripts/bench-fallback-texts).
    static let benchTexts: [String] = {
        let directory = BuildProducts.packageRoot.appendingPathComponent("scripts/bench-fallback-texts")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted().compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }
    }()

    /// Where the fast path meets the full segmenter: ZWJ sequences, flags, keycaps, marks after a
    /// plain scalar, Indic conjuncts, CR LF, variation selectors, and texts that start or end
    /// inside such a cluster.
    static let edges = [
        "a\u{0301}b", "e\u{0301}\u{0302}\u{0303}x", "\u{0301}a", "\u{0301}\u{0301}", "a\u{0301}", "x👨‍👩‍👧‍👦y",
        "👩‍💻👨‍💻", "\u{200D}👩", "👩\u{200D}", "👍🏽👍", "🏽a", "🇯🇵🇫🇷🇧", "🇯", "a🇯🇵b", "1️⃣2️⃣#️⃣", "1\u{20E3}", "☺️☺︎a",
        "\u{FE0F}a", "a\r\nb", "\r\n\r\n", "\r\r\n\n", "a\r", "\ra", "\n\u{0301}", "a\u{0085}\u{0301}", "नमस्ते",
        "क्षत्रिय", "स्वतन्त्रता", "क्\u{200D}ष", "क्", "्क", "क\u{093C}्ष", "क्\u{0941}ष", "क्\u{093F}ष", "ক্ষ অসমীয়া",
        "ક્ષ", "క్ష", "ക്ഷ", "ଓ୍ଡ଼ିଆ", "क्a", "a्क", "क््ष", "أحرارًا", "لكلّ", "\u{0600}١٢٣", "x\u{0600}",
        "\u{06DD}٤", "한국어", "\u{1100}\u{1161}\u{11A8}a", "가\u{0301}", "กำ ຄຳ", "മ\u{0D4E}ല", "漢字かなカナ",
        "Zwischen\u{200B}Raum", "\u{00AD}x", "a\u{200C}b", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}x",
        "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", "ᄀ", "a\u{1160}", "\u{1F1E6}\u{0301}\u{1F1E6}", "\u{0915}\u{094D}",
        "\u{0915}\u{094D}\u{0301}\u{0915}", "a\u{11A00}", "𑂽a", "각\u{11A8}\u{11A8}", "가\u{1161}\u{11A8}",
        "\u{1100}\u{1100}\u{AC00}\u{11A8}", "\u{AC01}\u{1161}", "\u{1100}\u{0301}\u{1161}", "한국어 문장\u{0301}",
    ]

    @Test("Each edge case is cut where Swift cuts it")
    func edgeCases() {
        for text in Self.edges {
            #expect(
                ClusterScanner.boundaries(of: text) == Self.swiftBoundaries(text),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("The benchmark's texts are cut where Swift cuts them, mostly without Swift")
    func benchTexts() {
        #expect(Self.benchTexts.count == 5)
        for text in Self.benchTexts {
            #expect(ClusterScanner.boundaries(of: text) == Self.swiftBoundaries(text))
        }
        // The Devanagari text's conjuncts are cut by the loop itself, not handed to Swift.
        guard var devanagari = Self.benchTexts.first(where: { $0.unicodeScalars.contains("\u{094D}") }) else {
            Issue.record("no Devanagari text")
            return
        }
        let pieces = devanagari.withUTF8 { bytes in
            var scanner = ClusterScanner(bytes)
            var pieces = 0
            while let item = scanner.next() {
                if case .piece = item { pieces += 1 }
            }
            return pieces
        }
        #expect(pieces == 0)
    }

    /// Scalars of every class the loop and Swift tell apart.
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", " ", ".", "1", "\r", "\n", "\t", "\u{85}", "\u{0301}", "\u{0308}", "\u{064B}", "\u{0651}", "\u{0627}",
        "\u{0644}", "\u{0915}", "\u{0937}", "\u{0930}", "\u{094D}", "\u{093C}", "\u{093F}", "\u{0941}", "\u{0902}",
        "\u{0995}", "\u{09CD}", "\u{0D15}", "\u{0D4D}", "\u{0D4E}", "\u{0E01}", "\u{0E33}", "\u{200D}", "\u{200C}",
        "\u{200B}", "\u{FE0F}", "\u{FE0E}", "\u{20E3}", "\u{1F1EF}", "\u{1F1F5}", "\u{1F469}", "\u{1F4BB}", "\u{1F3FD}",
        "\u{2764}", "\u{263A}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "\u{AC01}", "\u{0600}", "\u{4E16}",
        "\u{3001}", "\u{E0067}", "\u{E007F}", "\u{1F3F4}", "\u{102B}", "\u{1000}", "\u{1039}", "\u{110BD}",
        "\u{11000}", "\u{AD}", "\u{115F}", "\u{1160}", "\u{A960}", "\u{D7B0}", "\u{D7CB}", "\u{AC1C}", "\u{D7A3}",
        "\u{3131}",
    ]

    @Test("Random strings of those classes are cut where Swift cuts them (30,000 strings, seeded)")
    func randomStrings() {
        var generator = SeededRandom(seed: 29)
        var mismatches = 0
        for _ in 0..<30_000 {
            var view = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...10, using: &generator) {
                view.append(Self.alphabet.randomElement(using: &generator)!)
            }
            let text = String(view)
            if ClusterScanner.boundaries(of: text) != Self.swiftBoundaries(text) {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("mis-cut: \(text.unicodeScalars.map { String($0.value, radix: 16) })")
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(
        "Every scalar the table calls plain or a consonant breaks from plain neighbours, and every mark joins the scalar before it"
    )
    func table() {
        let table = ScalarClasses.table
        var plain: [Unicode.Scalar] = []
        var marks: [Unicode.Scalar] = []
        for value in 0..<ScalarClasses.tableLimit {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch table(value) {
            case ScalarClasses.plain, ScalarClasses.consonant: plain.append(scalar)
            case ScalarClasses.mark, ScalarClasses.chainMark, ScalarClasses.linker: marks.append(scalar)
            default: break
            }
        }
        #expect(plain.count > 60_000)
        #expect(marks.count > 1_500)
        func clusters(_ scalars: Unicode.Scalar...) -> Int {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view).count
        }
        var failures = 0
        for (position, scalar) in plain.enumerated() {
            let partner = plain[position * 7919 % plain.count]
            let plainAfterLinker =
                table(scalar.value) == ScalarClasses.plain && clusters("\u{0915}", "\u{094D}", scalar) != 2
            if clusters(scalar, "a") != 2 || clusters("\u{0915}", scalar) != 2 || clusters(scalar, partner) != 2
                || plainAfterLinker
            {
                failures += 1
                if failures < 5 { Issue.record("U+\(String(scalar.value, radix: 16)) joins a neighbour") }
            }
        }
        for scalar in marks where clusters("a", scalar) != 1 || clusters("\u{0915}", scalar, "a") != 2 {
            failures += 1
            if failures < 10 { Issue.record("mark U+\(String(scalar.value, radix: 16)) does not join as a mark") }
        }
        #expect(failures == 0)
    }

    @Test("The built-in class table is the one derived from Swift's properties and segmentation")
    func builtInTable() throws {
        let (pages, entries) = ScalarClasses.derive()
        if let path = ProcessInfo.processInfo.environment["FONTREG_WRITE_SCALAR_TABLE"] {
            try Self.tableSource(pages: pages, entries: entries).write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(pages == ScalarClasses.builtInPages, "pages differ: FONTREG_WRITE_SCALAR_TABLE=PATH writes the table")
        #expect(
            entries == ScalarClasses.builtInEntries, "entries differ: FONTREG_WRITE_SCALAR_TABLE=PATH writes the table")
        // The table a look-up reads is the built-in one.
        let table = ScalarClasses.table
        for value in stride(from: UInt32(0), to: ScalarClasses.tableLimit, by: 7) {
            let entry = entries[Int(pages[Int(value >> 8)]) << 8 | Int(value & 0xFF)]
            if table(value) != entry & ScalarClasses.classMask { Issue.record("U+\(String(value, radix: 16))") }
        }
    }

    /// ScalarClassTable.swift for a derived table.
    static func tableSource(pages: [UInt16], entries: [UInt8]) -> String {
        func rows<T: BinaryInteger>(_ values: [T], perLine: Int) -> String {
            stride(from: 0, to: values.count, by: perLine).map { start in
                "        "
                    + values[start..<min(start + perLine, values.count)].map { String($0) }.joined(separator: ", ")
                    + ","
            }.joined(separator: "\n")
        }
        return """
            // Generated from Swift's scalar properties and segmentation by `ScalarClasses.derive()`
            // (ClusterScannerTests writes it afresh: FONTREG_WRITE_SCALAR_TABLE=PATH swift test --filter ClusterScanner).
            // Do not edit by hand.

            extension ScalarClasses {
                /// Per 256-scalar page below ``tableLimit``, the index of its page of entries.
                static let builtInPages: [UInt16] = [
            \(rows(pages, perLine: 20))
                ]

                /// The pages of entries: a class (``plain`` … ``hangulLVT``), with ``ignorableBit``,
                /// ``emojiPresentationBit`` and ``ideographicBit`` set as the scalar's properties say.
                static let builtInEntries: [UInt8] = [
            \(rows(entries, perLine: 22))
                ]
            }

            """
    }

    @Test("Resolving with the scalar-level loop gives the runs Swift's segmentation of the whole text gives")
    func resolutionMatchesSwiftSegmentation() throws {
        let resolver = TextResolver(resolver: FallbackFonts.registry.resolver)
        var generator = SeededRandom(seed: 26)
        var texts = Self.benchTexts + Self.edges
        for _ in 0..<600 {
            var view = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...16, using: &generator) {
                view.append(Self.alphabet.randomElement(using: &generator)!)
            }
            texts.append(String(view))
        }
        for families in ["Lato", "Lato, Noto Sans Devanagari", "Noto Color Emoji, Lato"] {
            let query = TextQuery(families: TextQuery.families(from: families), style: ResolveQuery(family: ""))
            for text in texts {
                let fast = try resolver.resolve(text, query, cache: nil, swiftSegmentation: false)
                let swift = try resolver.resolve(text, query, cache: nil, swiftSegmentation: true)
                #expect(fast == swift, "\(families): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }
}

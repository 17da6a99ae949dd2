import Testing

@testable import FontRegCore

/// The sure grapheme boundaries the text resolver cuts at before Swift's segmentation (issue 29).
@Suite("Two plain scalars always have a grapheme boundary between them")
struct SimpleBoundariesTests {
    /// Texts where UAX #29 joins scalars: marks, conjuncts, Hangul, emoji sequences, flags,
    /// keycaps, prepended concatenation marks, Thai and Lao SARA AM, CR LF.
    static let texts = [
        "يولد جميع الناس أحرارًا متساوين", "\u{0600}١٢٣ and \u{06DD}٤", "नमस्ते क्षत्रिय", "অসমীয়া ক্ষ",
        "한국어 \u{1100}\u{1161}\u{11A8}", "👨‍👩‍👧‍👦 🇯🇵🇫🇷 1️⃣ 👍🏽 ☺️ ☺︎", "e\u{0301} é", "กำ ຄຳ", "a\r\nb",
        "മ\u{0D4E}ല", "漢字かなカナ", "Zwischen\u{200B}Raum \u{00AD}x",
    ]

    /// Whether Swift's segmentation of `text` has a boundary before scalar position `offset`.
    private func isBoundary(_ text: String, scalarOffset offset: Int) -> Bool {
        let index = text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: offset)
        return text.indices.contains(index) || index == text.endIndex
    }

    @Test("On texts with every joining rule, each position between two plain scalars is a boundary of Swift's clusters")
    func texts() {
        var checked = 0
        for text in Self.texts {
            let scalars = Array(text.unicodeScalars)
            for offset in 1..<scalars.count
            where SimpleBoundaries.isPlain(scalars[offset - 1].value) && SimpleBoundaries.isPlain(scalars[offset].value)
            {
                checked += 1
                #expect(isBoundary(text, scalarOffset: offset), "\(text) at scalar \(offset)")
            }
        }
        #expect(checked > 50)
    }

    @Test("Marks, joiners, Hangul and prepended marks are not plain; letters, digits and punctuation are")
    func classes() {
        for value: UInt32 in [
            0x0301, 0x064B, 0x093F, 0x094D, 0x200D, 0xFE0F, 0x0E33, 0x0600, 0x0D4E, 0xAC00, 0x1100, 0x000D, 0x00AD,
            0x1F600,
        ] {
            #expect(!SimpleBoundaries.isPlain(value), "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x61, 0x2E, 0x0627, 0x0915, 0x4E16, 0x30AB, 0x0661, 0x263A] {
            #expect(SimpleBoundaries.isPlain(value), "U+\(String(value, radix: 16))")
        }
    }

    @Test("Every plain BMP scalar breaks from a plain neighbour in Swift's segmentation (three partners each)")
    func pairs() {
        let plain = (0..<UInt32(0x10000)).filter { SimpleBoundaries.isPlain($0) }
        #expect(plain.count > 40_000)
        // Each plain scalar beside a letter, a mark-taking base and a partner spread over the table.
        for (position, value) in plain.enumerated() {
            let scalar = Unicode.Scalar(value)!
            let partner = Unicode.Scalar(plain[position * 7919 % plain.count])!
            for (first, second) in [(scalar, "a" as Unicode.Scalar), ("क", scalar), (scalar, partner)] {
                var pair = String.UnicodeScalarView()
                pair.append(first)
                pair.append(second)
                if String(pair).count != 2 {
                    Issue.record(
                        "U+\(String(first.value, radix: 16)) U+\(String(second.value, radix: 16)) is one cluster")
                }
            }
        }
    }
}

import FontRegCore
import FontRegTestSupport
import Foundation
import Testing

/// One registry over just the Debian font files these tests need, built once for the suite.
enum FallbackFonts {
    /// The files: Lato, Noto Sans, Noto Sans CJK, Noto Color Emoji and the Noto scripts (scripts/setup-deps.sh --test).
    static let files: [String] = {
        let lato = ["Regular", "Medium", "Semibold", "Bold", "Italic"].map {
            "/usr/share/fonts/truetype/lato/Lato-\($0).ttf"
        }
        let noto = [
            "NotoSans-Regular", "NotoSans-Bold", "NotoSansArabic-Regular", "NotoSansArabic-Bold",
            "NotoSansDevanagari-Regular", "NotoSansDevanagari-Bold", "NotoSansHebrew-Regular", "NotoSansHebrew-Bold",
            "NotoSansThai-Regular", "NotoSansThai-Bold", "NotoColorEmoji",
        ].map { "/usr/share/fonts/truetype/noto/\($0).ttf" }
        let cjk = ["Regular", "Bold"].map { "/usr/share/fonts/opentype/noto/NotoSansCJK-\($0).ttc" }
        return lato + noto + cjk
    }()

    /// The registry, scanned once.
    static let registry: FontRegistry = {
        let cache = ProcessScratch.directory("fontreg-fallback")
        return try! FontRegistry(configuration: RegistryConfiguration(fontFiles: files, cacheDirectory: cache))
    }()

    /// The registry with DejaVu Sans too: a family that covers what Lato does and much more, as on Debian.
    static let withDejaVu: FontRegistry = {
        let cache = ProcessScratch.directory("fontreg-fallback-dv")
        let dejavu = ["DejaVuSans", "DejaVuSans-Bold"].map { "/usr/share/fonts/truetype/dejavu/\($0).ttf" }
        return try! FontRegistry(configuration: RegistryConfiguration(fontFiles: files + dejavu, cacheDirectory: cache))
    }()

    /// Resolves a text over the registry.
    static func resolve(
        _ text: String, families: String = "Lato", weight: FontWeight = .regular, boldText: Bool = false,
        language: String? = nil, in registry: FontRegistry = registry
    ) throws -> TextResolution {
        let style = ResolveQuery(family: "", weight: weight, boldText: boldText)
        let query = TextQuery(families: TextQuery.families(from: families), style: style, language: language)
        return try TextResolver(resolver: registry.resolver).resolve(text, query)
    }
}

@Suite("Text resolution by coverage, with real Debian fonts")
struct TextResolverTests {
    /// The runs as (text, PostScript name) pairs, for compact expectations.
    private func summary(_ answer: TextResolution) -> [String] {
        answer.runs.map { "\($0.text)|\($0.resolution.face.postscriptName)|\($0.resolution.effectiveWeight)" }
    }

    @Test("Every face of the registry has coverage, and a CJK face costs tens of kilobytes at most")
    func coverageIsRecorded() {
        let faces = FallbackFonts.registry.index.faces
        #expect(faces.allSatisfy { !$0.coverage.isEmpty })
        let cjk = faces.first { $0.postscriptName == "NotoSansCJKjp-Regular" }
        #expect(cjk?.coverage.contains(0x4E16) == true)
        #expect((cjk?.coverage.codePointCount ?? 0) > 40_000)
        #expect((cjk?.coverage.memoryBytes ?? .max) < 64 * 1024)
        let lato = faces.first { $0.postscriptName == "Lato-Regular" }
        #expect(lato?.coverage.contains(0x41) == true)
        #expect(lato?.coverage.contains(0x4E16) == false)
        #expect(lato?.coverage.languages.contains("en") == true)
        #expect(lato?.coverage.languages.contains("ja") == false)
    }

    @Test("Emoji at bold italic are drawn as they are: a colour face is never faked bold or oblique (issue 30)")
    func colourEmojiAreNeverSynthesized() throws {
        let style = ResolveQuery(family: "", weight: .bold, italic: true)
        let query = TextQuery(families: ["Lato"], style: style)
        let answer = try TextResolver(resolver: FallbackFonts.registry.resolver).resolve("Hi 😀", query)
        let emoji = try #require(answer.runs.first { $0.resolution.face.postscriptName == "NotoColorEmoji" })
        #expect(emoji.resolution.synthesis == Synthesis())
        #expect(emoji.resolution.trace.contains { "\($0)".contains("has colour glyphs") })
        let latin = try #require(answer.runs.first)
        #expect(latin.resolution.face.postscriptName.hasPrefix("Lato"))
    }

    @Test(
        "Mixed scripts at regular: Latin and the spaces in Lato, Han in Noto Sans CJK, Arabic in Noto Sans Arabic, emoji in colour"
    )
    func mixedScriptsRegular() throws {
        let answer = try FallbackFonts.resolve("Hello 世界 مرحبا 😀", language: "ja")
        #expect(
            summary(answer) == [
                "Hello |Lato-Regular|400", "世界|NotoSansCJKjp-Regular|400", " |Lato-Regular|400",
                "مرحبا|NotoSansArabic-Regular|400", " |Lato-Regular|400", "😀|NotoColorEmoji|400",
            ])
        #expect(answer.runs.map(\.fallback) == [false, true, false, true, false, true])
        #expect(answer.missing.isEmpty)
        #expect(answer.assumedLanguage == nil)
        let last = try #require(answer.runs.last)
        #expect(last.start == "Hello 世界 مرحبا ".utf8.count && last.end == last.start + 4)
        #expect(last.startUTF16 == "Hello 世界 مرحبا ".utf16.count && last.endUTF16 == last.startUTF16 + 2)
    }

    @Test("Bold Text is applied in every fallback family with that family's own weights")
    func mixedScriptsBoldText() throws {
        let answer = try FallbackFonts.resolve("Hello 世界 مرحبا नमस्ते", boldText: true)
        #expect(
            summary(answer) == [
                "Hello |Lato-Medium|500", "世界|NotoSansCJKsc-Bold|700", " |Lato-Medium|500",
                "مرحبا|NotoSansArabic-Bold|700", " |Lato-Medium|500", "नमस्ते|NotoSansDevanagari-Bold|700",
            ])
        #expect(answer.assumedLanguage == "zh-Hans")
    }

    @Test("Bold asked of a stack keeps bold in Thai and Hebrew fallback faces")
    func boldInFallbacks() throws {
        let answer = try FallbackFonts.resolve("Bold สวัสดี שלום", weight: .bold)
        #expect(
            summary(answer) == [
                "Bold |Lato-Bold|700", "สวัสดี|NotoSansThai-Bold|700", " |Lato-Bold|700",
                "שלום|NotoSansHebrew-Bold|700",
            ])
    }

    @Test(
        "The language tag picks the Han face of the CJK collection",
        arguments: [
            ("ja", "NotoSansCJKjp-Regular"), ("zh-Hans", "NotoSansCJKsc-Regular"), ("zh-Hant", "NotoSansCJKtc-Regular"),
            ("zh-HK", "NotoSansCJKhk-Regular"), ("ko", "NotoSansCJKkr-Regular"),
        ])
    func hanByLanguage(language: String, face: String) throws {
        let answer = try FallbackFonts.resolve("直角", language: language)
        #expect(summary(answer) == ["直角|\(face)|400"])
        #expect(answer.assumedLanguage == nil)
    }

    @Test(
        "Emoji sequences are one cluster in one colour run",
        arguments: ["👩‍👩‍👧‍👦", "🇯🇵", "1️⃣", "👋🏽", "❤️"])
    func emojiSequences(emoji: String) throws {
        let answer = try FallbackFonts.resolve("a\(emoji)")
        #expect(summary(answer) == ["a|Lato-Regular|400", "\(emoji)|NotoColorEmoji|400"])
    }

    @Test("Text after an emoji goes back to a text face, though the emoji face maps digits and spaces")
    func textAfterEmoji() throws {
        let answer = try FallbackFonts.resolve("😀 12")
        #expect(summary(answer) == ["😀|NotoColorEmoji|400", " 12|Lato-Regular|400"])
    }

    @Test("A code point nothing covers is reported missing and kept in the surrounding run")
    func missingCodePoint() throws {
        let answer = try FallbackFonts.resolve("a\u{10FFFD}b")
        #expect(answer.missing == [0x10FFFD])
        #expect(summary(answer) == ["a\u{10FFFD}b|Lato-Regular|400"])
    }

    @Test("Arabic words with combining marks stay whole, marks never split from their base; the space is Lato's")
    func arabicWithMarks() throws {
        let answer = try FallbackFonts.resolve("بِسْمِ اللَّهِ", boldText: true)
        #expect(
            summary(answer) == [
                "بِسْمِ|NotoSansArabic-Bold|700", " |Lato-Medium|500", "اللَّهِ|NotoSansArabic-Bold|700",
            ])
        #expect(answer.runs.first?.reason.contains("Bold Text") == true)
    }

    @Test("A plan kept across calls gives the same answers as a fresh one")
    func planCacheAnswersAlike() throws {
        let cache = FallbackPlanCache()
        let resolver = TextResolver(resolver: FallbackFonts.registry.resolver)
        let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: "", boldText: true), language: "ko")
        for text in ["Hello 世界 😀", "한국어 مرحبا", "Hello 世界 😀"] {
            let fresh = try resolver.resolve(text, query)
            let cached = try resolver.resolve(text, query, cache: cache)
            #expect(cached == fresh)
        }
    }

    @Test("A text over the limit is refused with a typed error")
    func textTooLong() {
        let text = String(repeating: "a", count: TextResolver.maximumTextBytes + 1)
        #expect(throws: TextResolveError.textTooLong(bytes: text.utf8.count, limit: TextResolver.maximumTextBytes)) {
            try FallbackFonts.resolve(text)
        }
    }
}

@Suite("Coverage in the index file")
struct CoverageCacheTests {
    @Test("A warm start reads coverage and languages back from the index file")
    func warmStartKeepsCoverage() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("fontreg-covcache-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let files = [
            "/usr/share/fonts/truetype/lato/Lato-Regular.ttf", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        ]
        let cold = try FontRegistry(configuration: RegistryConfiguration(fontFiles: files, cacheDirectory: cache))
        let warm = try FontRegistry(configuration: RegistryConfiguration(fontFiles: files, cacheDirectory: cache))
        let coldFaces = cold.index.faces.sorted { $0.postscriptName < $1.postscriptName }
        let warmFaces = warm.index.faces.sorted { $0.postscriptName < $1.postscriptName }
        #expect(FileManager.default.fileExists(atPath: cache + "/" + FontRegistry.indexFileName))
        #expect(warm.startMode == .warm && warm.index.isMapped)
        #expect(coldFaces.count == warmFaces.count && coldFaces.count > 2)
        #expect(zip(coldFaces, warmFaces).allSatisfy { $0.coverage == $1.coverage && !$1.coverage.isEmpty })
        #expect(warmFaces.contains { $0.coverage.languages.contains("ja") })
    }
}

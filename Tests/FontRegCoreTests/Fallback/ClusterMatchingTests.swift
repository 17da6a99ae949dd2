import FontRegCore
import Testing

/// CSS's per-cluster rule (CSS Fonts 4, "Cluster matching"), as Chromium applies it: each grapheme
/// cluster goes to the first family of the stack that covers it, also after a fallback run.
@Suite("Per-cluster fallback as CSS defines it, with real Debian fonts")
struct ClusterMatchingTests {
    /// The runs as `text|family` pairs.
    private func families(_ answer: TextResolution) -> [String] {
        answer.runs.map { "\($0.text)|\($0.resolution.face.family)" }
    }

    @Test("Latin between Japanese words goes back to Lato, spaces included")
    func latinBetweenJapaneseGoesBackToTheFirstFamily() throws {
        let answer = try FallbackFonts.resolve("Mixed Latin 漢字 and カタカナ", language: "ja")
        #expect(
            families(answer) == [
                "Mixed Latin |Lato", "漢字|Noto Sans CJK JP", " and |Lato", "カタカナ|Noto Sans CJK JP",
            ])
    }

    @Test("In a formula, the letters and relations Lato has stay in Lato; only what it lacks goes to fallback")
    func mathKeepsWhatLatoCovers() throws {
        let answer = try FallbackFonts.resolve("∀x ∈ ℝ: E = ρ ≥ 0", in: FallbackFonts.withDejaVu)
        // ℝ goes to DejaVu Sans, the fallback face this text already uses, though fontconfig's
        // first sans-serif (Noto Sans) has it too: Chromium draws it so.
        #expect(
            families(answer) == [
                "∀|DejaVu Sans", "x |Lato", "∈|DejaVu Sans", " |Lato", "ℝ|DejaVu Sans", ": E = ρ ≥ 0|Lato",
            ])
    }

    @Test("Spaces between Arabic words go to Lato, which has them, not to DejaVu Sans")
    func arabicSpacesGoToTheFirstFamily() throws {
        let answer = try FallbackFonts.resolve("مرحبا بالعالم الجميل", in: FallbackFonts.withDejaVu)
        let spaces = answer.runs.filter { $0.text == " " }
        #expect(spaces.count == 2)
        #expect(spaces.allSatisfy { $0.resolution.face.family == "Lato" && !$0.fallback })
        #expect(answer.runs.filter { $0.text != " " }.allSatisfy { $0.resolution.face.family != "Lato" })
    }

    @Test("A family later in the stack draws what it covers before system fallback is asked")
    func laterStackFamilyBeforeSystemFallback() throws {
        let answer = try FallbackFonts.resolve(
            "Hi שלום ∀x", families: "Lato, Noto Sans Hebrew", in: FallbackFonts.withDejaVu)
        #expect(
            families(answer) == [
                "Hi |Lato", "שלום|Noto Sans Hebrew", " |Lato", "∀|DejaVu Sans", "x|Lato",
            ])
    }

    @Test("A system fallback face already used in the text draws the later clusters it covers; Han keeps its region")
    func systemFallbackFaceIsReused() throws {
        let answer = try FallbackFonts.resolve("नमस्ते १२३", in: FallbackFonts.withDejaVu)
        #expect(families(answer) == ["नमस्ते|Noto Sans Devanagari", " |Lato", "१२३|Noto Sans Devanagari"])
        let han = try FallbackFonts.resolve("한국 直角", language: "ja")
        #expect(families(han).last == "直角|Noto Sans CJK JP")
    }

    /// Multilingual strings: scripts Lato lacks next to Latin, digits, spaces and punctuation.
    static let texts = [
        "Mixed Latin 漢字 and カタカナ", "∀x ∈ ℝ: E = ρ ≥ 0", "مرحبا بالعالم، 2024!", "Hello 世界 مرحبا 😀",
        "Bold สวัสดี שלום (test)", "नमस्ते, world — १२३ and 123", "한국어 text: 「引用」 «quote»",
        "Emoji 👩‍👩‍👧‍👦 🇯🇵 1️⃣ 👋🏽 end.", "Ελληνικά and Кириллица ∮ ⇒ done", "בְּרֵאשִׁית 1:1 — \"quoted\"",
    ]

    @Test("No cluster the first family covers is drawn with another face", arguments: texts)
    func noClusterLatoCoversIsDrawnElsewhere(text: String) throws {
        let lato = try #require(FallbackFonts.withDejaVu.index.faces.first { $0.postscriptName == "Lato-Regular" })
        let answer = try FallbackFonts.resolve(text, in: FallbackFonts.withDejaVu)
        #expect(answer.runs.map(\.text).joined() == text)
        for run in answer.runs where run.resolution.face.family != "Lato" && !run.resolution.face.isColor {
            for cluster in run.text {
                #expect(
                    !lato.coverage.covers(cluster), "\(cluster) is in Lato but drawn with \(run.resolution.face.family)"
                )
            }
        }
        let faces = answer.runs.map(\.resolution.face.postscriptName)
        #expect(zip(faces, faces.dropFirst()).allSatisfy { $0 != $1 }, "adjacent runs of one face are merged")
        // Colour emoji prefer a colour face; every other cluster Lato covers is in a Lato run.
        let runs = answer.runs.filter { $0.resolution.face.family == "Lato" }
        #expect(runs.allSatisfy { !$0.fallback })
    }

    @Test("Devanagari digits alone go to the Devanagari face, as fontconfig ranks the script's language first")
    func devanagariDigitsAloneGoToDevanagari() throws {
        let answer = try FallbackFonts.resolve("१२३ alone", in: FallbackFonts.withDejaVu)
        #expect(families(answer) == ["१२३|Noto Sans Devanagari", " alone|Lato"])
    }

    /// ASCII next to what joins it into one cluster: CR LF, a combining mark, a keycap, an Arabic
    /// prepended number sign, a ZWJ; the ASCII fast path must not split any of them.
    static let joined = [
        "ab\r\ncd", "cafe\u{301} ok", "key 1\u{FE0F}\u{20E3} end", "n \u{0600}12 x", "a\u{200D}b", "\r\n", "x\r",
    ]

    @Test("Runs end only at grapheme cluster boundaries, also where ASCII touches a joining scalar", arguments: joined)
    func runsEndAtClusterBoundaries(text: String) throws {
        let answer = try FallbackFonts.resolve(text, in: FallbackFonts.withDejaVu)
        #expect(answer.runs.map(\.text).joined() == text)
        #expect(answer.runs.map { $0.text.count }.reduce(0, +) == text.count, "no cluster is cut between runs")
        #expect(answer.runs.last?.end == text.utf8.count)
        #expect(answer.runs.last?.endUTF16 == text.utf16.count)
    }
}

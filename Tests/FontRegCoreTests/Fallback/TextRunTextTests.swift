import FontRegCore
import Testing

@Suite("A resolved run's text, cut from the whole text when read (issue 29 item 4)")
struct TextRunTextTests {
    @Test("Each run's text is the stretch between its UTF-8 offsets, and the runs put together give the text")
    func runTextsAreTheStretchesOfTheText() throws {
        let text = "Hello مرحبا नमस्ते 世界 👩‍👩‍👧 done"
        let answer = try FallbackFonts.resolve(text, families: "Lato")
        #expect(answer.runs.count > 2)
        let utf8 = Array(text.utf8)
        for run in answer.runs {
            #expect(run.text == String(decoding: utf8[run.start..<run.end], as: UTF8.self))
            #expect(run.text.utf16.count == run.endUTF16 - run.startUTF16)
        }
        #expect(answer.runs.map(\.text).joined() == text)
    }

    @Test("A run's text set by hand replaces the cut one; its offsets changed later leave the text alone")
    func settingTextAndOffsetsIsIndependent() throws {
        var run = try #require(try FallbackFonts.resolve("abc مرحبا", families: "Lato").runs.first)
        let original = run.text
        run.start += 1
        #expect(run.text == original)
        run.text = "replaced"
        #expect(run.text == "replaced")
    }

    @Test("A run with its text cut equals and hashes as the same run made with that text of its own")
    func cutAndOwnTextsCompareEqual() throws {
        let run = try #require(try FallbackFonts.resolve("Grüße, world", families: "Lato").runs.first)
        let own = TextRun(
            text: String(run.text), start: run.start, end: run.end, startUTF16: run.startUTF16,
            endUTF16: run.endUTF16, resolution: run.resolution, fallback: run.fallback, reason: run.reason)
        #expect(own == run)
        #expect(own.hashValue == run.hashValue)
        var other = own
        other.text = "different"
        #expect(other != run)
    }
}

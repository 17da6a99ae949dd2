import FontRegCore
import FontRegJSON
import Testing

@testable import FontRegProtocol

@Suite("ResolveText's reply on the wire (issue 12)")
struct TextReplyTests {
    @Test("A reply read back from its wire members equals the one sent, trace and oblique angle included")
    func roundTrip() throws {
        let run = TextReply.Run(
            text: "世界", start: 6, end: 12, startUTF16: 6, endUTF16: 8, postscriptName: "NotoSansCJKjp-Bold",
            file: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", index: 0, weight: 650, italic: false,
            variations: ["wght": 650, "wdth": 87.5], synthesis: Synthesis(bold: true, oblique: true, obliqueAngle: 14),
            fallback: true, reason: "Han for ja", trace: ["Asked for \"Noto Sans CJK JP\""])
        let plain = TextReply.Run(
            text: "a", start: 0, end: 1, startUTF16: 0, endUTF16: 1, postscriptName: "Lato-Regular", file: "/x.ttf",
            index: 0, weight: 400, italic: false, variations: [:], synthesis: .none, fallback: false, reason: "r",
            trace: nil)
        var reply = try #require(TextReply(parameters: ["runs": .array([]), "missing": .array([])]))
        reply.runs = [plain, run]
        reply.missing = [0x10FFFD]
        reply.assumedLanguage = "zh-Hans"
        #expect(TextReply(parameters: reply.parameters) == reply)
        #expect(reply.parameters["runs"]?.arrayValue?.first?["trace"] == nil)
        #expect(TextReply(parameters: ["runs": .array([.string("no")]), "missing": .array([])]) == nil)
    }
}

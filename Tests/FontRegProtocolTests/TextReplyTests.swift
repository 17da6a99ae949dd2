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

@Suite("ResolveText's compact reply (issue 29)")
struct CompactTextReplyTests {
    static let face: JSONValue = .object([
        "postscriptName": .string("Lato-Regular"), "file": .string("/x.ttf"), "index": .int(0), "weight": .int(400),
        "italic": .bool(false), "variations": .object([:]), "synthesis": .object([:]), "fallback": .bool(false),
        "reason": .string("r"),
    ])

    /// One span's five integers of the flat `spans` array (UTF-16 offsets equal to the UTF-8 ones).
    static func span(_ face: Int, _ start: Int, _ end: Int) -> [JSONValue] {
        [.int(face), .int(start), .int(end), .int(start), .int(end)]
    }

    static func reply(_ spans: [[JSONValue]]) -> [String: JSONValue] {
        ["runs": .array([]), "missing": .array([]), "faces": .array([face]), "spans": .array(spans.flatMap { $0 })]
    }

    @Test("A span's text is the request's text between its UTF-8 offsets, with the face it names")
    func spansTakeTheirText() throws {
        let reply = try #require(
            TextReply(parameters: Self.reply([Self.span(0, 0, 3), Self.span(0, 3, 6)]), text: "héllo"))
        #expect(reply.runs.map(\.text) == ["hé", "llo"])
        #expect(reply.runs.map(\.postscriptName) == ["Lato-Regular", "Lato-Regular"])
        #expect(reply.runs.map(\.end) == [3, 6])
    }

    @Test("A span inside a character, past the text or naming no face makes the reply unreadable")
    func badSpansAreRefused() {
        #expect(TextReply(parameters: Self.reply([Self.span(0, 0, 2)]), text: "héllo") == nil)
        #expect(TextReply(parameters: Self.reply([Self.span(0, 3, 7)]), text: "héllo") == nil)
        #expect(TextReply(parameters: Self.reply([Self.span(1, 0, 1)]), text: "héllo") == nil)
        #expect(TextReply(parameters: Self.reply([Self.span(0, 2, 1)]), text: "héllo") == nil)
        // Not a whole number of spans, or not integers.
        #expect(TextReply(parameters: Self.reply([Array(Self.span(0, 0, 1).dropLast())]), text: "héllo") == nil)
        let notIntegers = [JSONValue.string("0")] + Self.span(0, 0, 1).dropFirst()
        #expect(TextReply(parameters: Self.reply([notIntegers]), text: "héllo") == nil)
    }
}

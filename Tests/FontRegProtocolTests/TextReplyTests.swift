import FontRegCore
import FontRegJSON
import Foundation
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

@Suite("A reply's runs share their face's members (issue 29 item 4)")
struct TextReplyRunSharingTests {
    static let sent = TextReply.Run(
        text: "", start: 0, end: 0, startUTF16: 0, endUTF16: 0, postscriptName: "Lato-Regular", file: "/x.ttf",
        index: 0, weight: 400, italic: false, variations: ["wght": 400], synthesis: .none, fallback: false,
        reason: "first family", trace: nil)

    /// Two runs of a compact reply over `text`, both of the one face.
    static func twoRuns(_ text: String, utf16: [Int] = [0, 3, 3, 6]) throws -> [TextReply.Run] {
        let spans = [0, 0, 3, utf16[0], utf16[1], 0, 3, 6, utf16[2], utf16[3]]
        let reply = try #require(
            TextReply(faces: [sent], spans: spans, missing: [], assumedLanguage: nil, text: text))
        return reply.runs
    }

    @Test("Changing any face member of one run leaves the other runs of that face as they were")
    func changingOneRunLeavesItsSiblingsAlone() throws {
        var runs = try Self.twoRuns("abcdef")
        runs[0].postscriptName = "Changed"
        runs[0].weight = 700
        runs[0].variations["wdth"] = 75
        runs[0].reason = "changed"
        runs[0].trace = ["step"]
        runs[0].synthesis = Synthesis(bold: true, oblique: false, obliqueAngle: nil)
        runs[0].fallback = true
        runs[0].italic = true
        runs[0].file = "/y.ttf"
        runs[0].index = 2
        #expect(runs[1].postscriptName == "Lato-Regular")
        #expect(runs[1].weight == 400 && runs[1].variations == ["wght": 400] && runs[1].reason == "first family")
        #expect(runs[1].trace == nil && runs[1].synthesis == .none && !runs[1].fallback && !runs[1].italic)
        #expect(runs[1].file == "/x.ttf" && runs[1].index == 0)
        #expect(runs[0].postscriptName == "Changed" && runs[0].weight == 700 && runs[0].variations["wdth"] == 75)
    }

    @Test("A compact reply's runs carry the text between their offsets, and equal runs made member by member")
    func compactRunsEqualRunsMadeWhole() throws {
        let runs = try Self.twoRuns("añbéf", utf16: [0, 2, 2, 4])
        #expect(runs.map(\.text) == ["añ", "bé"])
        // A span that ends inside a character is refused, not cut there.
        #expect(
            TextReply(
                faces: [Self.sent], spans: [0, 0, 3, 0, 2, 0, 3, 6, 2, 4], missing: [], assumedLanguage: nil,
                text: "añbdéf") == nil)
        var whole = Self.sent
        whole.text = "añ"
        whole.end = 3
        whole.endUTF16 = 2
        #expect(runs[0] == whole)
        #expect(runs[0].hashValue == whole.hashValue)
        #expect(runs[0] != runs[1])
    }

    @Test("A run encodes with Codable under the wire's member names, without trace when it has none")
    func codableKeepsTheMemberNames() throws {
        var run = Self.sent
        run.text = "ab"
        let encoded = try JSONEncoder().encode(run)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "text", "start", "end", "startUTF16", "endUTF16", "postscriptName", "file", "index", "weight",
                "italic", "variations", "synthesis", "fallback", "reason",
            ])
        #expect(try JSONDecoder().decode(TextReply.Run.self, from: encoded) == run)
        run.trace = ["a step"]
        let traced = try JSONDecoder().decode(TextReply.Run.self, from: JSONEncoder().encode(run))
        #expect(traced.trace == ["a step"])
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

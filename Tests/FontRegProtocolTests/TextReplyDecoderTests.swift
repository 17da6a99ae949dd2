import FontRegJSON
import Foundation
import Testing

@testable import FontRegProtocol

/// The direct reader of `ResolveText`'s compact reply against the general path (parse into a
/// tree, then ``TextReply/init(parameters:text:)``) on hand-made shapes (issue 29 item 4).
@Suite("ResolveText's compact reply read from its bytes (issue 29)")
struct TextReplyDecoderTests {
    static let text = "héllo"
    static let plainFace =
        #"{"fallback":false,"file":"/x.ttf","index":0,"italic":false,"postscriptName":"Lato-Regular","reason":"r","#
        + #""synthesis":{"bold":false,"oblique":false},"variations":{},"weight":400}"#
    static let richFace =
        #"{"fallback":true,"file":"/y \"q\".ttf","index":65536,"italic":true,"postscriptName":"Noto\u0041","#
        + #""reason":"Han for ja","synthesis":{"bold":true,"oblique":true,"obliqueAngle":14},"trace":["a","b"],"#
        + #""variations":{"wdth":87.5,"wght":650},"weight":650}"#
    static let faces = "[\(plainFace),\(richFace)]"

    /// A compact reply's parameters with `spans` and the other members as given.
    static func parameters(
        spans: String = "[0,0,3,0,2,1,3,6,2,5]", missing: String? = "[1114109,12]", language: String? = #""ja""#,
        runs: String? = "[]", faces: String = faces, extra: String = ""
    ) -> String {
        var members: [String] = []
        if let language { members.append(#""assumedLanguage":"# + language) }
        members.append(#""faces":"# + faces)
        if let missing { members.append(#""missing":"# + missing) }
        if let runs { members.append(#""runs":"# + runs) }
        members.append(#""spans":"# + spans)
        return "{" + members.joined(separator: ",") + extra + "}"
    }

    /// What the direct reader makes of `parameters`, and what the general path does.
    static func readBoth(_ parameters: String) -> (direct: TextReply?, general: TextReply?) {
        let bytes = Array(parameters.utf8)
        let direct = bytes.withUnsafeBufferPointer { TextReplyDecoder.reply(parameters: $0, text: text) }
        let tree = (try? JSONParser.parse(bytes))?.objectValue
        return (direct, tree.flatMap { TextReply(parameters: $0, text: text) })
    }

    static let readShapes: [(String, String)] = [
        ("as the daemon writes it", parameters()),
        (
            "white space around every token",
            " { \"assumedLanguage\" : \"ja\" ,\n\t\"faces\" : \(faces) , \"missing\" : [ 1114109 , 12 ] , \"runs\" : [ ] , \"spans\" : [ 0 , 0 , 3 , 0 , 2 , 1 , 3 , 6 , 2 , 5 ] }\r\n"
        ),
        (
            "members in another order",
            #"{"spans":[0,0,3,0,2,1,3,6,2,5],"runs":[],"missing":[12],"faces":"# + faces + "}"
        ),
        ("no assumed language and no runs member", parameters(language: nil, runs: nil)),
        ("nothing missing and one span over the whole text", parameters(spans: "[1,0,6,0,5]", missing: "[]")),
        ("no spans for an empty answer", parameters(spans: "[]", missing: "[]")),
        ("a non-ASCII language tag", parameters(language: #""zh-Hänt""#)),
    ]

    @Test(
        "The shapes the daemon writes, spaced or ordered otherwise, are read directly, as the general path reads them")
    func readsTheDaemonsShape() throws {
        for (label, parameters) in Self.readShapes {
            let (direct, general) = Self.readBoth(parameters)
            let expected = try #require(general, "\(label): the general path reads it")
            #expect(direct == expected, "\(label)")
        }
        let reply = try #require(Self.readBoth(Self.parameters()).direct)
        #expect(reply.runs.map(\.text) == ["hé", "llo"])
        #expect(reply.runs.map(\.postscriptName) == ["Lato-Regular", "NotoA"])
        #expect(reply.runs[1].file == #"/y "q".ttf"#)
        #expect(reply.runs[1].variations == ["wght": 650, "wdth": 87.5])
        #expect(reply.runs[1].trace == ["a", "b"])
        #expect(reply.runs.map(\.startUTF16) == [0, 2] && reply.runs.map(\.endUTF16) == [2, 5])
        #expect(reply.missing == [1_114_109, 12] && reply.assumedLanguage == "ja")
    }

    static let refusedShapes: [(String, String)] = [
        ("an unknown member", parameters(extra: #","note":1"#)),
        ("a repeated member", parameters(extra: #","missing":[]"#)),
        ("an escape in a member name", parameters().replacingOccurrences(of: #""spans""#, with: #""sp\u0061ns""#)),
        ("an escape in the language", parameters(language: #""j\u0061""#)),
        ("a language that is not a string", parameters(language: "null")),
        ("an integer written with a fraction", parameters(spans: "[0,0,3,0,2,1,3,6,2,5.0]")),
        ("an integer written with an exponent", parameters(spans: "[0,0,3,0,2,1,3,6,2,5e0]")),
        ("an integer with a leading zero", parameters(spans: "[0,0,03,0,2,1,3,6,2,5]")),
        ("a negative UTF-16 offset", parameters(spans: "[0,0,3,-1,2,1,3,6,2,5]")),
        ("a code point too large for an exact integer", parameters(missing: "[1234567890123456]")),
        ("runs that are not empty", parameters(runs: #"[{"text":"x"}]"#)),
        ("no missing member", parameters(missing: nil)),
        ("bytes after the object", parameters() + "x"),
        ("a truncated object", String(parameters().dropLast())),
        ("spans not a whole number of spans", parameters(spans: "[0,0,3,0]")),
        ("a span inside a character", parameters(spans: "[0,0,2,0,2]")),
        ("a span past the text", parameters(spans: "[0,0,7,0,5]")),
        ("a span naming no face", parameters(spans: "[2,0,6,0,5]")),
        ("faces that are not faces", parameters(faces: #"[{"weight":400}]"#)),
        ("faces that are not an array", parameters(faces: "{}")),
        ("a face with a repeated member", parameters(faces: "[" + plainFace.dropLast() + #","weight":400}]"#)),
        ("not an object", "[]"),
    ]

    @Test("Any other shape makes the direct reader give up, whatever the general path makes of it")
    func givesUpOnOtherShapes() {
        for (label, parameters) in Self.refusedShapes {
            let (direct, general) = Self.readBoth(parameters)
            #expect(
                direct == nil,
                "\(label): read directly as \(String(describing: direct)); general: \(String(describing: general))")
        }
        // Some of them the general path still reads (so the client answers as before), others it refuses.
        let general = Self.refusedShapes.map { Self.readBoth($0.1).general != nil }
        #expect(general.contains(true) && general.contains(false))
    }
}

import Testing

@testable import FontRegJSON

@Suite("The one JSON writer")
struct JSONBytesWriterTests {
    static let sample: JSONValue = [
        "name": "A \"quoted\"\nline", "weights": [400, 700], "nested": ["b": true, "a": nil], "empty": [:],
        "none": [], "ratio": 0.5,
    ]

    @Test func compactTextHasSortedKeysAndNoSpaces() {
        #expect(
            Self.sample.description
                == #"{"empty":{},"name":"A \"quoted\"\nline","nested":{"a":null,"b":true},"none":[],"ratio":0.5,"weights":[400,700]}"#
        )
    }

    @Test func prettyTextIndentsTwoSpacesWithNoSpaceBeforeTheColon() {
        #expect(
            Self.sample.prettyPrinted() == """
                {
                  "empty": {},
                  "name": "A \\"quoted\\"\\nline",
                  "nested": {
                    "a": null,
                    "b": true
                  },
                  "none": [],
                  "ratio": 0.5,
                  "weights": [
                    400,
                    700
                  ]
                }
                """)
    }

    @Test(arguments: [JSONBytesWriter.Style.compact, .pretty])
    func memberByMemberWritingEqualsWritingTheTree(style: JSONBytesWriter.Style) throws {
        var writer = JSONBytesWriter(style: style)
        writer.begin()
        writer.member("empty") { writer in
            writer.begin()
            writer.end()
        }
        writer.member("name", "A \"quoted\"\nline")
        writer.member("nested", ["a": nil, "b": true] as JSONValue)
        writer.member("none") { $0.array([Int]()) { writer, value in writer.write(.int(value)) } }
        writer.member("ratio", 0.5)
        writer.member("weights") { $0.array([400, 700]) { writer, value in writer.write(.int(value)) } }
        writer.end()
        var tree = JSONBytesWriter(style: style)
        tree.write(Self.sample)
        #expect(String(decoding: writer.output, as: UTF8.self) == String(decoding: tree.output, as: UTF8.self))
        #expect(try JSONParser.parse(writer.output) == Self.sample)
    }

    @Test func enumerationsAreWrittenAsTheirRawValue() {
        enum Match: String { case exactName = "exact-name" }
        var writer = JSONBytesWriter()
        writer.begin()
        writer.member("match", Match.exactName)
        writer.end()
        #expect(String(decoding: writer.output, as: UTF8.self) == #"{"match":"exact-name"}"#)
    }

    @Test func encodableValuesBecomeTreesWithTheirCodableKeys() throws {
        struct Face: Encodable {
            var weight = 700
            var name = "Fixture-Bold"
            var axes: [Double] = [100, 900.5]
        }
        #expect(
            try JSONValue(encoding: Face()).description == #"{"axes":[100,900.5],"name":"Fixture-Bold","weight":700}"#)
    }
}

import Testing

@testable import FontRegJSON

@Suite("The one JSON writer")
struct JSONBytesWriterTests {
    static let sample: JSONValue = [
        "name": "A \"quoted\"\nline", "weights": [400, 700], "nested": ["b": true, "a": nil], "empty": [:],
        "none": [], "ratio": 0.5,
    ]

    /// The escape of every byte written one at a time, as the writer wrote it before it read 8 bytes at a time.
    static func escapedByteByByte(_ text: String) -> [UInt8] {
        var output: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: output += [0x5C, 0x22]
            case 0x5C: output += [0x5C, 0x5C]
            case 0x0A: output += Array(#"\n"#.utf8)
            case 0x0D: output += Array(#"\r"#.utf8)
            case 0x09: output += Array(#"\t"#.utf8)
            case ..<0x20: output += Array(#"\u00"#.utf8) + Array(String(byte, radix: 16).leftPadded(to: 2).utf8)
            default: output.append(byte)
            }
        }
        return output + [0x22]
    }

    @Test func aStringIsEscapedWhereverItsSpecialBytesFallInAWord() throws {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "😀"]
        for length in 0..<26 {
            let plain = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
            for special in specials {
                for offset in 0...length {
                    let cut = plain.index(plain.startIndex, offsetBy: offset)
                    for text in [
                        String(plain[..<cut]) + special + plain[cut...],
                        String(plain[..<cut]) + special + special + plain + special + plain[cut...],
                    ] {
                        var output: [UInt8] = []
                        JSONBytesWriter.writeString(text, to: &output)
                        #expect(output == Self.escapedByteByByte(text))
                        #expect(try JSONParser.parse(output) == .string(text))
                    }
                }
            }
        }
    }

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

    /// Integers at every digit count and both signs, the extremes included.
    static let integers: [Int] = {
        var values = [0, 1, -1, 9, -9, 10, -10, 99, 100, 999_999, 1_000_000, Int.max, Int.min, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            values.append(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0..<63))
        }
        return values
    }()

    @Test func integersAreWrittenAsStringSpellsThem() {
        for value in Self.integers {
            var output: [UInt8] = Array("x".utf8)
            JSONBytesWriter.writeInteger(value, to: &output)
            #expect(String(decoding: output, as: UTF8.self) == "x\(value)", "\(value)")
            #expect(JSONBytesWriter.decimalLength(value) == String(value).utf8.count)
        }
    }

    @Test(arguments: [0, 1, 2, 5, 2_000])
    func anIntegerArrayMemberEqualsTheTreeOfItsIntegers(count: Int) throws {
        let values = Array(Self.integers.prefix(count))
        var writer = JSONBytesWriter()
        writer.begin()
        writer.member("a", "b")
        writer.member("spans", integers: values)
        writer.member("z", true)
        writer.end()
        let tree: JSONValue = ["a": "b", "spans": .array(values.map { .int($0) }), "z": true]
        #expect(String(decoding: writer.output, as: UTF8.self) == tree.description)
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

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

import Testing

@testable import FontRegJSON

@Suite("JSON parser and writer")
struct JSONParserTests {
    func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test func parsesNestedValuesKeepingIntegersApartFromFloats() throws {
        let value = try parse(#" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d"}} "#)
        #expect(value == ["a": [1, -2.5, 300.0, true, false, nil], "b": ["c": "d"]])
        #expect(value["a"]?.arrayValue?.first == .int(1))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
    }

    /// The string scan reads 8 bytes at a time: a quote, an escape, a control character or a
    /// non-ASCII byte at any position of a word, in the first stretch or after an escape, is
    /// found where a byte-by-byte reading finds it.
    @Test func stringsAreReadTheSameWhereverASpecialByteFallsInAWord() throws {
        let specials: [(json: String, value: String)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), ("é", "é"), ("😀", "😀"), (#"\u00e9"#, "é"),
        ]
        for length in 0..<26 {
            for (json, value) in specials {
                for offset in 0...length {
                    let plain = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
                    let cut = plain.index(plain.startIndex, offsetBy: offset)
                    let text = "\"" + plain[..<cut] + json + plain[cut...] + "\""
                    #expect(try parse(text) == .string(String(plain[..<cut]) + value + String(plain[cut...])))
                    // Twice over: the stretch after the first special is scanned by words too.
                    let twice = "\"" + plain[..<cut] + json + plain + json + plain[cut...] + "\""
                    #expect(
                        try parse(twice)
                            == .string(String(plain[..<cut]) + value + plain + value + String(plain[cut...])))
                }
            }
        }
    }

    @Test func aControlCharacterOrAnInvalidByteAnywhereInALongStringIsRefused() throws {
        for offset in 0..<24 {
            var control = Array(#""abcdefghijklmnopqrstuvwxyz""#.utf8)
            control[1 + offset] = 0x01
            #expect(throws: JSONParseError.self) { try JSONParser.parse(control) }
            var invalid = Array(#""abcdefghijklmnopqrstuvwxyz""#.utf8)
            invalid[1 + offset] = 0xFF
            #expect(throws: JSONParseError.self) { try JSONParser.parse(invalid) }
        }
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "{'a': 1}", "01", "1.", "-", "tru", "\"\\x\"", "\"\\ud800\"", "{} {}",
        "\"a\nb\"", "nul",
    ])
    func rejectsMalformedInput(_ text: String) {
        #expect(throws: JSONParseError.self) { try parse(text) }
    }

    @Test(arguments: [#"{"a": 1, "a": 2}"#, #"{"a": 1, "b": {"c": 1, "c": 1}}"#, #"[{"x": 1, "y": 2, "x": 1}]"#])
    func refusesDuplicateMemberNamesNamingTheKeyAndItsOffset(_ text: String) throws {
        let error = try #require(throws: JSONParseError.self) { try parse(text) }
        #expect(error.reason.hasPrefix("duplicate member name"))
        #expect(error.description.contains("duplicate"))
        let key = Array(text.utf8)[error.offset]
        #expect(key == UInt8(ascii: "\""))
    }

    @Test func acceptsTheSameMemberNameInDifferentObjects() throws {
        #expect(try parse(#"[{"a": 1}, {"a": 2}]"#) == [["a": 1], ["a": 2]])
    }

    @Test func rejectsInvalidUTF8InStrings() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test func refusesNestingDeeperThanTheLimitInsteadOfOverflowingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try parse(deep) }
        let fine =
            String(repeating: "[", count: JSONParser.maximumDepth)
            + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(try parse(fine).arrayValue != nil)
    }

    @Test func writesSortedKeysAndEscapesControlCharactersSoOutputRoundTrips() throws {
        let value: JSONValue = ["b": "x\u{1}\"\\\n", "a": [1, 2.5, nil, true], "é": [:]]
        let text = value.description
        #expect(text == #"{"a":[1,2.5,null,true],"b":"x\u0001\"\\\n","é":{}}"#)
        #expect(try parse(text) == value)
        #expect(try parse(value.prettyPrinted()) == value)
    }
}

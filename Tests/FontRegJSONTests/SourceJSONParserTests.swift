import Testing

@testable import FontRegJSON

@Suite struct SourceJSONParserTests {
    @Test func valuesRememberTheirLineAndColumn() throws {
        let text = "{\n  \"a\": {\n    \"b\": [1, \"x\"]\n  }\n}"
        let root = try SourceJSONParser.parse(text)
        let array = try #require(root["a"]?["b"])
        #expect(array.position == SourcePosition(line: 3, column: 10, offset: array.position.offset))
        let second = try #require(array.arrayValue?[1])
        #expect(second.position.line == 3)
        #expect(second.position.column == 14)
        #expect(root["a"]?.members?.first?.keyPosition.column == 5)
    }

    @Test func numberLiteralsAreKeptExactly() throws {
        let root = try SourceJSONParser.parse("[653, 1.5e2, -0.25]")
        let values = try #require(root.arrayValue)
        #expect(values[0].intValue == 653)
        #expect(values[1].doubleValue == 150)
        if case .number(_, let literal, _) = values[1] {
            #expect(literal == "1.5e2")
        } else {
            Issue.record("not a number")
        }
        #expect(values[2].intValue == nil)
    }

    @Test func escapesAndSurrogatePairsAreDecoded() throws {
        let root = try SourceJSONParser.parse(#"["a\"b\\c\/d\n", "\u00e9\ud83d\ude00"]"#)
        #expect(root.arrayValue?[0].stringValue == "a\"b\\c/d\n")
        #expect(root.arrayValue?[1].stringValue == "é😀")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(throws: SourceJSONError.self) { try SourceJSONParser.parse("{\"é\": x}") }
        do {
            _ = try SourceJSONParser.parse("{\"é\": x}")
        } catch {
            #expect(error.position.column == 7)
        }
    }

    @Test(arguments: [
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("[1, 2,]", 1, 7, "trailing comma"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\""),
        ("{\"a\": \"open", 1, 7, "not closed"),
        ("{\"a\": 'x'}", 1, 7, "double quotes"),
        ("{\"a\": 007}", 1, 7, "leading zeros"),
        ("{\"a\": True}", 1, 7, "lower case"),
        ("", 1, 1, "empty"),
        ("{}\n{}", 2, 1, "after the end"),
        ("{\n  \"a\": [\n    1\n", 4, 1, "not closed with ']'"),
        ("\"tab\there\"", 1, 5, "control character"),
    ])
    func malformedJSONIsReportedWithLineAndColumn(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try SourceJSONParser.parse(text, file: "t.json")
            Issue.record("parsed malformed JSON: \(text)")
        } catch {
            #expect(error.position.line == line, "\(error)")
            #expect(error.position.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("t.json:\(line):\(column): "))
        }
    }

    @Test func nestingDeeperThanTheLimitIsRejected() {
        let text =
            String(repeating: "[", count: SourceJSONParser.maximumDepth + 1)
            + String(repeating: "]", count: SourceJSONParser.maximumDepth + 1)
        #expect(throws: SourceJSONError.self) { try SourceJSONParser.parse(text) }
        let ok = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(throws: Never.self) { try SourceJSONParser.parse(ok) }
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let root = try SourceJSONParser.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("{\"a\": true}".utf8))
        #expect(root["a"]?.boolValue == true)
    }

    @Test func jsonPointerFollowsEscapedKeysAndArrayIndices() throws {
        let root = try SourceJSONParser.parse(#"{"a/b": {"m~n": [10, 20]}, "font": {"weight": {"$value": 600}}}"#)
        #expect(SourceJSONPointer("#/a~1b/m~0n/1")?.resolve(in: root)?.intValue == 20)
        #expect(SourceJSONPointer("#/font/weight/$value")?.resolve(in: root)?.intValue == 600)
        #expect(SourceJSONPointer("/font/weight/%24value")?.resolve(in: root) == nil)
        #expect(SourceJSONPointer("#/font/weight/%24value")?.resolve(in: root)?.intValue == 600)
        #expect(SourceJSONPointer("#/a~1b/m~0n/2")?.resolve(in: root) == nil)
        #expect(SourceJSONPointer("#/a~1b/m~0n/01")?.resolve(in: root) == nil)
        #expect(SourceJSONPointer("font/weight") == nil)
        #expect(SourceJSONPointer("#/100%/x%2")?.tokens == ["100%", "x%2"])
        #expect(SourceJSONPointer("#/a%7E1b")?.tokens == ["a/b"])  // percent-decoded first, then ~1 → /
        #expect(SourceJSONPointer(tokens: ["a/b", "m~n"]).description == "#/a~1b/m~0n")
    }
}

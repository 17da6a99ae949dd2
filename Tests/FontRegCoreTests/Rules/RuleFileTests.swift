import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

@Suite struct RuleFileTests {
    /// The example in docs/rules.md, so the documentation stays true.
    static func documentedExample() throws -> String {
        let doc = try String(contentsOfFile: Fixtures.repository + "/docs/rules.md", encoding: .utf8)
        let start = try #require(doc.range(of: "```json\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        return String(doc[start.upperBound..<end.lowerBound])
    }

    @Test func theDocumentedCompleteExampleParses() throws {
        let rules = try RuleFileParser.parse(data: Data(try Self.documentedExample().utf8), path: "rules.md")
        let rule = try #require(rules.first)
        #expect(rule.family == "Avenir Next")
        #expect(rule.familyName == "AvenirNext")
        #expect(rule.weightNames[600] == "DemiBold")
        #expect(rule.weightNames[800] == "Heavy")
        #expect(rule.weightNames[400] == "Regular")
        #expect(rule.supportedWeights == [200, 400, 500, 600, 700, 800])
        #expect(rule.boldPolicy == .nextHeavier)
        #expect(
            rule.aliases == [
                .init(name: "Avenir", deprecated: false), .init(name: "AvenirNextLTPro", deprecated: true),
            ])
        #expect(rule.composedName(weight: 600, italic: true) == "AvenirNext-DemiBoldItalic")
    }

    @Test func aSyntaxErrorIsReportedWithLineAndColumn() {
        let text = "{\n  \"family\": \"X\",\n  \"weightNames\": {,}\n}"
        #expect {
            try RuleFileParser.parse(data: Data(text.utf8), path: "bad.json")
        } throws: { error in
            let error = error as! RuleError
            return error.file == "bad.json" && error.line == 3 && error.column != nil
                && error.message.contains("not valid JSON")
        }
    }

    @Test func anUnknownWeightNameIsReportedOnItsLineWithTheAcceptedNames() {
        let text = "{\n  \"family\": \"X\",\n  \"weightNames\": {\n    \"semiheavy\": \"Foo\"\n  }\n}"
        #expect {
            try RuleFileParser.parse(data: Data(text.utf8), path: "w.json")
        } throws: { error in
            let error = error as! RuleError
            return error.line == 4 && error.column == 5 && error.message.contains("semiheavy")
                && error.message.contains("semibold")
        }
    }

    @Test(arguments: [
        ("{\"familyName\": \"X\"}", "\"family\" must be"),
        ("{\"family\": \"X\", \"boldPolicy\": \"sometimes\"}", "next-heavier"),
        ("{\"family\": \"X\", \"supportedWeights\": [\"bold\", 2000]}", "2000 in supportedWeights is not a weight"),
        ("{\"family\": \"X\", \"family\": \"Y\"}", "duplicate"),
        ("{\"family\": \"X\", \"colour\": 1}", "unknown key \"colour\""),
        ("[1]", "must be a JSON object"),
    ])
    func semanticErrorsSayWhatIsWrong(text: String, words: String) {
        #expect {
            try RuleFileParser.parse(data: Data(text.utf8), path: "r.json")
        } throws: { error in
            (error as! RuleError).message.contains(words)
        }
    }

    @Test func aMalformedFileDoesNotStopTheOthersFromLoading() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        try "{\"family\": \"Good One\", \"weightNames\": {\"bold\": \"Heavyish\"}}".write(
            toFile: dir + "/a.json", atomically: true, encoding: .utf8)
        try "{ not json".write(toFile: dir + "/b.json", atomically: true, encoding: .utf8)
        try "[{\"family\": \"Two\"}, {\"family\": \"Three\"}]".write(
            toFile: dir + "/c.json", atomically: true, encoding: .utf8)
        try "ignored".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
        let set = RuleSet.load(directory: dir)
        #expect(set.rules.map(\.family) == ["Good One", "Two", "Three"])
        #expect(set.problems.count == 1)
        #expect(set.problems.first?.file.hasSuffix("b.json") == true)
        #expect(set.rule(for: "good-one")?.weightNames[700] == "Heavyish")
    }

    @Test func aMissingRulesDirectoryIsAProblemNotACrash() {
        let set = RuleSet.load(directory: "/nonexistent/fontreg-rules")
        #expect(set.rules.isEmpty)
        #expect(set.problems.first?.message.contains("cannot read the rules directory") == true)
    }

    @Test(arguments: [
        "Avenir Fixture", "Neue Fixture", "Hairline Fixture", "SF Fixture Display", "Open Fixture", "Fixture Sans",
    ])
    func suggestedRulesComposeTheNamesOfEveryRegisteredUprightFace(family: String) throws {
        let entry = try #require(Fixtures.registry.index.family(named: family))
        let rule = RuleSuggester.suggest(for: entry).rule
        for face in entry.faces(style: .normal) where face.weight % 100 == 0 {
            #expect(
                rule.composedName(weight: face.weight, italic: false)?.lowercased() == face.postscriptName.lowercased())
        }
        let resolver = Resolver(index: Fixtures.registry.index, rules: RuleSet(rules: [rule]))
        for face in entry.faces(style: .normal) where face.weight % 100 == 0 {
            let answer = try resolver.resolve(
                ResolveQuery(family: family, weight: FontWeight(face.weight)!, strict: true))
            #expect(answer.match == .exactName)
            #expect(answer.face.postscriptName == face.postscriptName)
        }
    }

    @Test func suggestionDiscoversDemiBoldHeavyAndAnEmptyRegularName() throws {
        let index = Fixtures.registry.index
        let avenir = RuleSuggester.suggest(for: try #require(index.family(named: "Avenir Fixture"))).rule
        #expect(avenir.weightNames[600] == "DemiBold")
        #expect(avenir.weightNames[800] == "Heavy")
        #expect(avenir.supportedWeights == [200, 400, 500, 600, 700, 800])
        let neue = RuleSuggester.suggest(for: try #require(index.family(named: "Neue Fixture"))).rule
        #expect(neue.weightNames[400] == "")
        // The JSON it writes parses back to the same names.
        let parsed = try RuleFileParser.parse(data: Data(avenir.ruleFileJSON.utf8), path: "s.json")
        #expect(parsed.first?.weightNames == avenir.weightNames)
    }
}

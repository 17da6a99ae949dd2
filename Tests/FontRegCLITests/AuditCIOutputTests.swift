import FontRegTestSupport
import Testing

@testable import FontRegAudit
@testable import FontRegCLI
@testable import FontRegJSON

/// `--format sarif` and `--format github`: results on the token file's line and column.
@Suite struct AuditCIOutputTests {
    static let primer = AuditFixtures.tokens("json5/primer")

    static func run(_ format: String) -> AuditCommand.Result {
        AuditCommand.run(arguments: [primer, "--format", format], faces: AuditFixtures.fixtureIndex)
    }

    @Test func sarifPointsAtTheStyleThatNeedsTheMissingFace() throws {
        let result = Self.run("sarif")
        #expect(result.exitCode == 1)
        let log = try JSONParser.parse(Array(result.stdout.utf8))
        #expect(log["version"]?.stringValue == "2.1.0")
        let results = try #require(log["runs"]?.arrayValue?.first?["results"]?.arrayValue)
        #expect(results.count == 1)
        let first = results[0]
        #expect(first["ruleId"]?.stringValue == "fontreg/missing-face")
        #expect(
            first["message"]?["text"]?.stringValue?.hasPrefix(
                "`text.quote` needs Noto Fixture 500 italic under Bold Text: missing")
                == true)
        let location = try #require(first["locations"]?.arrayValue?.first?["physicalLocation"])
        #expect(location["artifactLocation"]?["uri"]?.stringValue == Self.primer + "/typography.json5")
        #expect(location["region"]?["startLine"]?.intValue == 20)
        #expect(location["region"]?["startColumn"]?.intValue == 5)
    }

    @Test func githubAnnotationsCarryFileLineAndColumn() {
        let result = Self.run("github")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines[0].hasPrefix(
                "::error file=\(Self.primer)/typography.json5,line=20,col=5,title=missing font face::`text.quote` needs Noto Fixture 500 italic under Bold Text: missing"
            ))
        #expect(lines[1].hasPrefix("::notice title=fontresolve audit::"))
    }

    @Test func brokenReferenceIsAnnotatedOnItsLineAndExitsTwo() throws {
        let folder = AuditFixtures.tokens("json5/broken")
        let github = AuditCommand.run(arguments: [folder, "--format", "github"], faces: AuditFixtures.fixtureIndex)
        #expect(github.exitCode == 2)
        #expect(
            github.stdout.hasPrefix("::error file=\(folder)/typography.json5,line=5,col=66,title=token file error::"))
        #expect(github.stdout.contains("refers to {base.text.weight.bold}, which does not exist"))
        #expect(github.stderr.contains("typography.json5:5:66"))
        let sarif = AuditCommand.run(arguments: [folder, "--format", "sarif"], faces: AuditFixtures.fixtureIndex)
        let log = try JSONParser.parse(Array(sarif.stdout.utf8))
        let result = try #require(log["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first)
        #expect(result["ruleId"]?.stringValue == "fontreg/input-error")
        #expect(result["locations"]?.arrayValue?.first?["physicalLocation"]?["region"]?["startLine"]?.intValue == 5)
    }

    @Test func outputFormatsExcludeEachOther() {
        let result = AuditCommand.run(arguments: [Self.primer, "--format", "sarif", "--json"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("exclude each other"))
    }

    @Test func originIsParsedBackFromItsDescription() {
        let origin = UseOrigin(file: "a:b/t.json5", name: "x.y (z)", position: SourcePosition(line: 3, column: 9))
        let finding = AuditFinding.parse(origin.description)
        #expect(finding.file == "a:b/t.json5" && finding.line == 3 && finding.column == 9 && finding.name == "x.y (z)")
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCLI
@testable import FontRegCore

/// The command end to end, in process, against the fixture fonts and the bundled Inter and Lato.
@Suite struct AuditCommandTests {
    static func run(_ arguments: [String], faces: FontIndex? = nil, rules: RuleSet? = nil) -> AuditCommand.Result {
        AuditCommand.run(arguments: arguments, faces: faces, rules: rules)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func dtcgSystemAgainstFixtureFontsReportsTheMissingItalicBoldTextWeight() throws {
        let result = Self.run(
            [AuditFixtures.tokens("dtcg/design-system.tokens.json"), "--json"], faces: AuditFixtures.fixtureIndex)
        #expect(result.exitCode == 1)
        let report = try #require(result.report)
        let noto = try #require(report.families.first { $0.family == "Noto Fixture" })
        let italic = try #require(noto.styles.first { $0.style == "italic" })
        #expect(italic.used == [400])
        #expect(italic.required == [400, 500])
        #expect(italic.missing.map(\.weight) == [500])
        #expect(italic.missing.first?.standIn?.postscriptName == "NotoFixture-Italic")
        let sans = try #require(report.families.first { $0.family == "Fixture Sans" })
        #expect(sans.styles.first?.required == [400, 500, 600, 700, 800, 900])
        #expect(sans.styles.first?.missing.isEmpty == true)
        let variable = try #require(report.families.first { $0.family == "Fixture Var" })
        #expect(variable.styles.first?.faces.map(\.weight) == [653, 700])
        #expect(variable.styles.first?.faces.first?.file.hasSuffix("FixtureVar[wght].ttf") == true)
        #expect(report.notAuditable.map(\.name) == ["-apple-system", "sans-serif", "serif", "system-ui"])
    }

    @Test func jsonOutputHasTheDocumentedKeysAndIsStable() throws {
        let arguments =
            [AuditFixtures.tokens("native/text-styles.json"), "--json"] + AuditFixtures.fixtureFontArguments
        let first = Self.run(arguments)
        let second = Self.run(arguments)
        #expect(first.stdout == second.stdout)
        let root = try Self.json(first.stdout)
        #expect(
            Set(root.keys) == [
                "boldPolicy", "complete", "families", "inputs", "notAuditable", "notes", "status", "totals",
                "unusedFamilies", "unusedInputs", "variableFonts",
            ])
        let families = try #require(root["families"] as? [[String: Any]])
        let styles = families.flatMap { $0["styles"] as? [[String: Any]] ?? [] }
        let style = try #require(styles.first { ($0["faces"] as? [Any])?.isEmpty == false })
        for key in [
            "family", "style", "used", "boldText", "required", "missing", "faces", "unneeded", "weights", "standIns",
        ] {
            #expect(style[key] != nil, "missing key \(key)")
        }
        let face = try #require((style["faces"] as? [[String: Any]])?.first)
        #expect(Set(face.keys) == ["weight", "postscriptName", "file", "bytes", "roles", "variable"])
        let grotesk = try #require(families.first { $0["family"] as? String == "Missing Grotesk" })
        #expect(grotesk["registeredFamily"] is NSNull)
        // Keys are sorted: "boldPolicy" comes before "complete" in the text.
        let boldPolicy = try #require(first.stdout.range(of: "\"boldPolicy\""))
        let complete = try #require(first.stdout.range(of: "\"complete\""))
        #expect(boldPolicy.lowerBound < complete.lowerBound)
    }

    @Test func completeDesignSystemExitsZero() {
        let result = Self.run([AuditFixtures.tokens("swift/DesignSystem")] + AuditFixtures.fixtureFontArguments)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Complete: every required face is there."))
    }

    @Test func bundledInterAndLatoShipTheRequiredFilesWithTheirRealSizes() throws {
        let directory = AuditFixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("styles.json")
        try Data(
            #"""
            {"textStyles": [
              {"name": "body", "family": "Inter, system-ui, sans-serif", "weight": 400},
              {"name": "heading", "family": "Inter", "weight": 700},
              {"name": "quote", "family": "Lato", "weight": 300, "style": "italic"}
            ]}
            """#.utf8
        ).write(to: input)
        let result = Self.run(
            [input.path, "--json"] + AuditFixtures.bundledFontDirectories.flatMap { ["--fonts", $0] })
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let report = try #require(result.report)
        let inter = try #require(report.families.first { $0.family == "Inter" })
        let upright = try #require(inter.styles.first { $0.style == "normal" })
        #expect(
            upright.faces.map(\.postscriptName) == ["Inter-Regular", "Inter-Medium", "Inter-Bold", "Inter-ExtraBold"])
        for face in upright.faces {
            let size = try FileManager.default.attributesOfItem(atPath: face.file)[.size] as? Int64
            #expect(face.bytes == size)
        }
        #expect(upright.unneeded.contains { $0.file.hasSuffix("Inter-Thin.otf") })
        #expect(inter.totals.unneededFiles == 18 - 4)
        let lato = try #require(report.families.first { $0.family == "Lato" })
        let latoItalic = try #require(lato.styles.first { $0.style == "italic" })
        // Lato names 300 "Light" and 400 italic "Italic".
        #expect(latoItalic.faces.map(\.postscriptName) == ["Lato-LightItalic", "Lato-Italic"])
        #expect(report.notAuditable.map(\.name) == ["sans-serif", "system-ui"])
    }

    @Test func markdownIsAPullRequestComment() {
        let result = Self.run(
            [AuditFixtures.tokens("native/text-styles.json"), "--markdown"] + AuditFixtures.fixtureFontArguments)
        #expect(result.exitCode == 1)
        #expect(result.stdout.hasPrefix("## Font audit: ❌ 4 required faces missing"))
        #expect(result.stdout.contains("| style | weight | needed for | face | file | size |"))
        #expect(
            result.stdout.contains(
                "| normal | 500 | Bold Text | ❌ **missing** | `NotoFixture-Regular` (400) stands in | |"))
        #expect(result.stdout.contains("<details><summary>Drop"))
    }

    @Test func humanTableNamesMissingFacesAndTotals() {
        let result = Self.run([AuditFixtures.tokens("native/text-styles.json")] + AuditFixtures.fixtureFontArguments)
        let lines = result.stdout.split(separator: "\n")
        #expect(
            lines.contains {
                $0.contains("800 extrabold") && $0.contains("MISSING")
                    && $0.hasSuffix("NotoFixture-Bold (700) stands in")
            })
        #expect(result.stdout.contains("Missing Grotesk  (NOT REGISTERED)"))
        #expect(result.stdout.contains("Total: 8 faces required, 4 found, 4 MISSING"))
    }

    @Test func unreadableInputExitsTwoWithLineAndColumn() {
        let file = AuditFixtures.tokens("errors/missing-comma.tokens.json")
        let result = Self.run([file])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("\(file):5:48:"))
        #expect(result.stdout.isEmpty)
    }

    @Test func circularReferenceExitsTwoNamingTheTokenPath() {
        let result = Self.run([AuditFixtures.tokens("errors/circular.tokens.json")])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("circular reference typography.title → font.weight.strong"))
    }

    @Test func missingInputFileExitsTwo() {
        let result = Self.run(["/nonexistent/tokens.json"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("/nonexistent/tokens.json: cannot read the input"))
    }

    @Test(arguments: [
        ["--bold-policy", "heaviest"], ["--format", "yaml"], [], ["--json", "--markdown"], ["--frobnicate"],
    ])
    func badUsageExits64WithAHint(extra: [String]) {
        let inputs = extra.isEmpty ? [] : [AuditFixtures.tokens("native/text-styles.json")]
        let result = Self.run(inputs + extra)
        #expect(result.exitCode == 64)
        #expect(!result.stderr.isEmpty)
    }

    @Test func boldPolicyOptionChangesTheRequiredWeights() throws {
        let result = Self.run(
            [AuditFixtures.tokens("native/text-styles.json"), "--bold-policy", "css-bolder"],
            faces: AuditFixtures.fixtureIndex)
        let noto = try #require(result.report?.families.first { $0.family == "Noto Fixture" })
        #expect(result.report?.boldPolicy == .cssBolder)
        #expect(noto.styles.first?.boldText == [700, 900])
    }

    @Test func formatOptionOverridesDetection() {
        let result = Self.run([AuditFixtures.tokens("native/text-styles.json"), "--format", "dtcg"])
        // Read as DTCG the native list has no typography tokens: nothing audited, which is never success.
        #expect(result.exitCode == 65)
        #expect(result.report?.status == .nothingAudited)
        #expect(result.report?.families.isEmpty == true)
    }

    @Test func severalInputsAddUp() throws {
        let result = Self.run(
            [AuditFixtures.tokens("native/text-styles.json"), AuditFixtures.tokens("swift/DesignSystem")],
            faces: AuditFixtures.fixtureIndex)
        let report = try #require(result.report)
        #expect(report.inputs.count == 2)
        let noto = try #require(report.families.first { FamilyKey($0.family) == FamilyKey("Noto Fixture") })
        #expect(noto.styles.first?.used == [400, 700])
        #expect(report.families.contains { $0.family == "NeueFixture" })
    }

    @Test func withoutFontsEverythingIsMissingAndTheNoteSaysWhy() {
        let result = Self.run([AuditFixtures.tokens("native/text-styles.json")])
        #expect(result.exitCode == 1)
        #expect(result.report?.notes.contains { $0.contains("pass --fonts DIR") } == true)
    }

    @Test func unwritableReportPathExits73() {
        let result = Self.run(
            [AuditFixtures.tokens("native/text-styles.json"), "--report", "/nonexistent-dir/r.html"],
            faces: AuditFixtures.fixtureIndex)
        #expect(result.exitCode == 73)
        #expect(result.stderr.contains("cannot write the report"))
    }

    @Test func familyRulesGiveAliasesAndSupportedWeights() throws {
        let directory = AuditFixtures.temporaryDirectory()
        let rules = directory.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try Data(
            #"""
            {"family": "Noto Fixture", "supportedWeights": ["regular", "bold"],
             "aliases": ["Brand Serif", {"name": "OldBrand", "deprecated": true}]}
            """#.utf8
        ).write(to: rules.appendingPathComponent("noto.json"))
        let input = directory.appendingPathComponent("styles.json")
        try Data(#"[{"family": "Brand Serif", "weight": 400}, {"family": "OldBrand", "weight": 700}]"#.utf8).write(
            to: input)

        let viaOption = Self.run([input.path, "--rules", rules.path] + AuditFixtures.fixtureFontArguments)
        let viaParameter = Self.run(
            [input.path], faces: AuditFixtures.fixtureIndex, rules: RuleSet.load(directory: rules.path))
        for result in [viaOption, viaParameter] {
            #expect(result.exitCode == 0, "\(result.stdout)")
            let report = try #require(result.report)
            #expect(report.families.count == 1)
            #expect(report.families.first?.registeredFamily == "Noto Fixture")
            #expect(report.families.first?.supportedWeights == [400, 700])
            #expect(report.families.first?.styles.first?.required == [400, 700])
            #expect(report.notes.contains { $0.contains("OldBrand is a deprecated alias of Noto Fixture") })
        }
    }

    @Test func withoutRulesTheSameStylesNeedTheNextStepOfEachWeight() throws {
        let result = Self.run([AuditFixtures.tokens("native/text-styles.json")], faces: AuditFixtures.fixtureIndex)
        let noto = try #require(result.report?.families.first { $0.family == "Noto Fixture" })
        #expect(noto.styles.first?.required == [400, 500, 700, 800])
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// `style-name`, `weight-of` and `rules check` on the bundled fonts (`fonts/Inter`, `fonts/Lato`).
@Suite struct StyleNameCommandTests {
    let fonts = AuditFixtures.bundledFontDirectories.flatMap { ["--fonts", $0] }

    @Test(arguments: [
        (["Lato", "600"], "Semibold"), (["Lato", "semibold", "--italic"], "Semibold Italic"),
        (["Lato", "800"], "Heavy"), (["Inter", "800"], "Extra Bold"), (["Inter", "600"], "Semi Bold"),
        (["Lato", "400", "--italic"], "Italic"),
    ])
    func styleNameIsTheNameTheFontGivesItsFace(arguments: [String], expected: String) throws {
        let output = try FontResolveProcess.run(["style-name"] + arguments + fonts)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == expected + "\n")
    }

    @Test func variableFontsNamedInstancesHaveTheirInstanceNames() throws {
        let variable = ["--fonts", AuditFixtures.testsRoot.appendingPathComponent("Fixtures/fonts/variable").path]
        let name = try FontResolveProcess.run(["style-name", "Fixture Var", "600"] + variable)
        #expect(name.status == 0)
        #expect(name.stdout == "SemiBold\n")
        let weight = try FontResolveProcess.run(["weight-of", "Fixture Var", "Semi Bold"] + variable)
        #expect(weight.stdout == "600\n")
    }

    @Test func styleNameOfAMissingWeightExitsOneWithTheWeightsThere() throws {
        let output = try FontResolveProcess.run(["style-name", "Lato", "650"] + fonts)
        #expect(output.status == 1)
        #expect(output.stderr.contains("Lato has no upright face of weight 650; its weights: 100, 200"))
    }

    @Test(arguments: [
        (["Lato", "Semibold"], "600"), (["Lato", "semi bold italic"], "600 italic"), (["Inter", "SemiBold"], "600"),
        (["Lato", "Heavy"], "800"), (["Lato", "Hairline"], "100"),
    ])
    func weightOfReadsTheStyleNameBack(arguments: [String], expected: String) throws {
        let output = try FontResolveProcess.run(["weight-of"] + arguments + fonts)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == expected + "\n")
    }

    @Test func weightOfAnUnknownStyleListsTheStyleNames() throws {
        let output = try FontResolveProcess.run(["weight-of", "Lato", "Demi"] + fonts)
        #expect(output.status == 1)
        #expect(output.stderr.contains("its style names: Hairline, Hairline Italic, Thin"))
    }

    @Test func weightOfJSONNamesTheFace() throws {
        let output = try FontResolveProcess.run(["weight-of", "Lato", "Heavy", "--json"] + fonts)
        #expect(output.status == 0)
        #expect(
            output.stdout.contains("\"postscriptName\" : \"Lato-Heavy\"")
                || output.stdout.contains("\"postscriptName\": \"Lato-Heavy\""))
    }

    @Test func bundledRulesCheckClean() throws {
        let rules = AuditFixtures.repositoryRoot.appendingPathComponent("fonts/rules").path
        let output = try FontResolveProcess.run(["rules", "check", "--rules", rules] + fonts)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.hasSuffix("1 rule checked: 0 errors, 0 warnings\n"))
    }

    @Test func rulesCheckReportsWrongClassesInversionsAndUnreadableNamesWithLineAndFix() throws {
        let rules = AuditFixtures.tokens("rules-check")
        let output = try FontResolveProcess.run(["rules", "check", "--rules", rules] + fonts)
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        func line(_ fragment: String) -> String? { lines.first { $0.contains(fragment) } }
        #expect(
            line("weightNames 600 → \"Bold\" names Lato-Bold, whose usWeightClass is 700")?.contains(
                "lato-wrong.json:9:5: error: Lato:") == true)
        #expect(
            line("weightNames 100 → \"Thin\" names Lato-Thin, whose usWeightClass is 200")?.contains(":6:5: error")
                == true)
        #expect(
            line("inverted: 100 → Lato-Thin (class 200) is heavier than 200 → Lato-Hairline (class 100)")?.contains(
                "fix: swap") == true)
        #expect(line("reads the weight name \"Ultra\" as no weight at all")?.contains(":10:5: warning") == true)
        #expect(line("supportedWeights lists 400 but no registered face is named Lato-Book") != nil)
        #expect(lines.last == "1 rule checked: 4 errors, 5 warnings")
    }

    @Test func windowsLegacyClassIsReportedWithTheStepItStandsFor() {
        let rule = FamilyRule(family: "Legacy", familyName: "Legacy", source: "legacy.json")
        let face = FaceRecord(
            postscriptName: "Legacy-ExtraLight", family: "Legacy", subfamily: "ExtraLight",
            fullName: "Legacy ExtraLight",
            weight: 250, italic: false, file: "/x/Legacy-ExtraLight.ttf")
        let findings = RuleChecker.check(rule, faces: [face], places: [:])
        #expect(findings.count == 1)
        #expect(findings[0].message.contains("Windows-legacy usWeightClass 250"))
        #expect(findings[0].fix.hasPrefix("treat it as 200"))
    }
}

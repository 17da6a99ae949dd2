import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCLI

/// `--theme`, `--explain` and the errors for inputs the audit does not read, end to end.
@Suite struct AuditTokenFormsCommandTests {
    @Test func syncFolderReportNamesEveryThemeAndThemeOptionPicksOne() throws {
        let folder = AuditFixtures.tokens("tokens-studio-sync")
        let all = AuditCommand.run(arguments: [folder], faces: AuditFixtures.fixtureIndex)
        let inputs = try #require(all.report?.inputs)
        #expect(
            inputs.contains { $0.hasSuffix("[theme Default]") } && inputs.contains { $0.hasSuffix("[theme Dense]") })
        #expect(all.stdout.contains("theme \"Default\" reads sets semantic/typography; for references only: core"))
        let one = AuditCommand.run(arguments: [folder, "--theme", "Dense"], faces: AuditFixtures.fixtureIndex)
        #expect(one.report?.inputs.count == 1)
        let unknown = AuditCommand.run(arguments: [folder, "--theme", "Dark"], faces: AuditFixtures.fixtureIndex)
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr.contains("no theme named \"Dark\""))
    }

    @Test func explainSaysWhichTokensMadeEachStyle() {
        let result = AuditCommand.run(
            arguments: [AuditFixtures.tokens("style-dictionary/spectrum-typography.json"), "--explain"],
            faces: AuditFixtures.fixtureIndex)
        #expect(
            result.stdout.contains(
                "text style heading-sans-serif (Adobe Clean Spectrum VF 800): assembled from font-family: heading-sans-serif-font-family, font-weight: heading-sans-serif-font-weight, font-style: heading-sans-serif-font-style"
            ))
        #expect(
            result.stdout.contains(
                "text style detail-emphasized-typography (Adobe Clean Serif 400 italic): written as one style"))
    }

    @Test func moduleThatIsNotPlainDataExitsTwoNamingTheFormatAndWhatToPass() {
        let result = AuditCommand.run(
            arguments: [AuditFixtures.tokens("modules/computed.js")], faces: AuditFixtures.fixtureIndex)
        #expect(result.exitCode == 2)
        #expect(
            result.stderr.contains(
                "computed.js: a TypeScript/JavaScript module that is not plain data is not read by the audit"))
    }

    @Test func moduleWithOnlyAPaletteAuditsNothingAndExits65() {
        let result = AuditCommand.run(
            arguments: [AuditFixtures.tokens("modules/font.ts")], faces: AuditFixtures.fixtureIndex)
        #expect(result.exitCode == 65)
        #expect(result.report?.status == .nothingAudited)
    }

    @Test func siblingTokensWithNoFamilyAuditNothingAndExit65() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("weights-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"bold-font-weight": {"$schema": "font-weight.json", "value": "bold"}}"#.utf8).write(to: file)
        let result = AuditCommand.run(arguments: [file.path], faces: AuditFixtures.fixtureIndex)
        #expect(result.exitCode == 65)
        #expect(result.report?.status == .nothingAudited)
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore

/// The `wght` range a design system uses and the instancing estimate, checked against fontTools' instancer.
@Suite struct AuditVariableFontSavingsTests {
    static let variableFont = AuditFixtures.testsRoot.appendingPathComponent(
        "Fixtures/fonts/variable/FixtureVar[wght].ttf"
    )
    .path

    static func estimate(weights: [Int]) throws -> VariableFontUse {
        let uses = weights.map {
            TypographyUse(
                familyStack: ["Fixture Var"], weight: FontWeight($0)!, style: .normal,
                origin: UseOrigin(file: "t.json", name: "style\($0)"))
        }
        let document = TypographyDocument(file: "t.json", format: .dtcg, uses: uses)
        let faces = AuditFixtures.fixtureIndex.faces
        let report = Auditor(configuration: .init(boldPolicy: .nextHeavier, supportedWeights: ["Fixture Var": weights]))
            .audit([document], faces: faces)
        let estimates = VariableFontSavings.estimate(AuditWiring(report: report, faces: faces, uses: uses))
        return try #require(estimates.first { $0.file == variableFont })
    }

    @Test func tableDirectoryGivesTheVariationTables() throws {
        let sizes = try #require(VariableFontSavings.tableSizes(of: Self.variableFont))
        #expect(sizes["gvar"] != nil && sizes["fvar"] != nil && sizes["glyf"] != nil)
        #expect(VariableFontSavings.tableSizes(of: AuditFixtures.tokens("dtcg/design-system.tokens.json")) == nil)
    }

    @Test func oneUsedWeightIsPinnedAndTheEstimateMatchesFontToolsInstancer() throws {
        let use = try Self.estimate(weights: [653])
        #expect(use.used == [653])
        #expect(use.axis == [100, 900])
        #expect(use.advice == "pin")
        #expect(use.savedBytes == use.bytes - use.staticInstanceBytes)
        let output = AuditFixtures.temporaryDirectory().appendingPathComponent("pinned.ttf").path
        let run = try runCommand([
            "/usr/bin/env", PythonTools.python, "-m", "fontTools.varLib.instancer", Self.variableFont, "wght=653", "-o",
            output,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let actual = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        // The estimate is within a tenth of the file fontTools writes.
        let error = abs(Double(actual) - Double(use.staticInstanceBytes)) / Double(use.bytes)
        #expect(error < 0.1, "estimated \(use.staticInstanceBytes), instancer wrote \(actual) of \(use.bytes)")
        #expect(actual < Int(use.bytes))
    }

    @Test func manyUsedWeightsKeepTheFontAndTrimTheAxis() throws {
        let use = try Self.estimate(weights: [300, 400, 500, 700])
        #expect(use.advice == "trim")
        #expect(use.savedBytes == 0)
        #expect(use.commands.count == 1 && use.commands[0].contains("wght=300:700"))
        // Trimming keeps the deltas: fontTools' output stays close to the original size.
        let output = AuditFixtures.temporaryDirectory().appendingPathComponent("trimmed.ttf").path
        let run = try runCommand([
            "/usr/bin/env", PythonTools.python, "-m", "fontTools.varLib.instancer", Self.variableFont, "wght=300:700",
            "-o",
            output,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let actual = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        #expect(Double(actual) > Double(use.bytes) * 0.6, "trimmed to \(actual) of \(use.bytes)")
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// Faces claimed by more than one file: the documented winner (higher fontRevision, then a
/// static face over a variable instance, then the earlier directory), shown in the index and trace.
@Suite struct DuplicateTests {
    func registry(_ directories: [String]) throws -> FontRegistry {
        try FontRegistry(configuration: RegistryConfiguration(fontDirectories: directories))
    }

    @Test func theHigherFontRevisionWinsWhateverTheDirectoryOrder() throws {
        for order in [["dup-old", "dup-new"], ["dup-new", "dup-old"]] {
            let registry = try registry(order.map { Fixtures.matching + "/" + $0 })
            let answer = try registry.resolve(ResolveQuery(family: "Dup Fixture", strict: true))
            #expect(answer.face.file.hasSuffix("/dup-new/DupFixture-Regular.ttf"))
            #expect(answer.face.fontRevision == 2)
            #expect(answer.trace.contains { $0.contains("Duplicate:") && $0.contains("1.000 is older than 2.000") })
            let groups = registry.index.duplicates
            #expect(Set(groups.map(\.kind)) == [.postscriptName, .style])
            #expect(groups.allSatisfy { $0.winner.fontRevision == 2 && $0.losers.count == 1 })
            #expect(groups.allSatisfy { $0.losers[0].reason == .olderRevision(loser: 1, winner: 2) })
            #expect(registry.index.faces.count == 2)  // both listed; only one used
            #expect(registry.index.family(named: "Dup Fixture")?.faces.count == 1)
        }
    }

    @Test func onATieTheEarlierFontDirectoryWins() throws {
        let root = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(root) }
        for name in ["user", "system"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            Fixtures.copy(["DupFixture-Regular.ttf"], from: Fixtures.matching + "/dup-old", to: root + "/" + name)
        }
        for (first, second) in [("user", "system"), ("system", "user")] {
            let registry = try registry([root + "/" + first, root + "/" + second])
            let answer = try registry.resolve(ResolveQuery(family: "Dup Fixture", strict: true))
            #expect(answer.face.file.hasPrefix(root + "/" + first + "/"))
            let loser = try #require(registry.index.duplicates.first?.losers.first)
            #expect(loser.reason == .laterDirectory)
            #expect(loser.face.file.hasPrefix(root + "/" + second + "/"))
        }
    }

    @Test func aStaticFaceWinsOverTheVariableInstanceOfItsWeight() throws {
        let registry = try registry([Fixtures.fonts + "/variable", Fixtures.matching + "/var-static"])
        let bold = try registry.resolve(ResolveQuery(family: "Fixture Var", weight: .bold, strict: true))
        #expect(bold.face.file.hasSuffix("/var-static/FixtureVar-Bold.ttf"))
        #expect(bold.variations.isEmpty)
        #expect(bold.trace.contains { $0.contains("Duplicate:") && $0.contains("variable font's named instance") })
        let between = try registry.resolve(ResolveQuery(family: "Fixture Var", weight: FontWeight(650)!, strict: true))
        #expect(between.face.file.hasSuffix("/variable/FixtureVar[wght].ttf"))
        #expect(between.variations.map(\.description) == ["wght=650"])
        let group = try #require(registry.index.duplicates.first { $0.kind == .postscriptName })
        #expect(group.key == "FixtureVar-Bold")
        #expect(group.losers.map(\.reason) == [.variableInstance])
        #expect(group.losers.first?.face.instance != nil)
    }

    @Test func facesOfOneFileAndAVariableDefaultFaceAreNeverDuplicates() {
        #expect(Fixtures.registry.index.duplicates.isEmpty)
    }
}

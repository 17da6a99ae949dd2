import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegCore

@Suite struct FontRegistryTests {
    func emptyRegistry() throws -> FontRegistry {
        try FontRegistry(configuration: RegistryConfiguration())
    }

    @Test func registerAddsFacesAndUnregisterRemovesThem() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: dir)
        let registry = try emptyRegistry()
        let generation = registry.index.generation
        let added = try registry.register(paths: [dir])
        #expect(Set(added.added.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Bold"])
        #expect(registry.index.generation == generation + 1)
        #expect(registry.index.family(named: "Noto Fixture")?.faces.count == 2)
        #expect(registry.fontconfigPatternCount == 2)
        let removed = try registry.unregister(paths: [dir])
        #expect(removed.removed.count == 2)
        #expect(registry.index.faces.isEmpty)
        #expect(registry.fontconfigPatternCount == 0)
    }

    @Test func registeringTwiceIsRefusedAndTheSameFileCountsOnce() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: dir)
        let registry = try emptyRegistry()
        try registry.register(paths: [dir])
        #expect(throws: RegistryError.alreadyRegistered(path: dir)) { try registry.register(paths: [dir]) }
        let again = try registry.register(paths: [dir + "/NotoFixture-Regular.ttf"])
        #expect(again.added.isEmpty)
        #expect(registry.index.faces.count == 1)
    }

    @Test func missingPathsAndBadFilesAreRefusedWithTheReason() throws {
        let registry = try emptyRegistry()
        #expect(throws: RegistryError.fileNotFound(path: "/nonexistent/font.ttf")) {
            try registry.register(paths: ["/nonexistent/font.ttf"])
        }
        #expect {
            try registry.register(paths: [Fixtures.bad + "/truncated.ttf"])
        } throws: { error in
            guard case .invalidFontData(let path, let reason) = error as? RegistryError else { return false }
            return path.hasSuffix("truncated.ttf") && reason.contains("corrupt")
        }
        #expect(throws: RegistryError.notRegistered(path: "/tmp/never")) {
            try registry.unregister(paths: ["/tmp/never"])
        }
        #expect(registry.registeredPaths.isEmpty)
    }

    @Test func aDirectoryWithBadFilesRegistersTheGoodOnesAndReportsTheRest() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Italic.ttf"], to: dir)
        Fixtures.copy(["empty.ttf", "garbage.otf"], from: Fixtures.bad, to: dir)
        let registry = try emptyRegistry()
        let report = try registry.register(paths: [dir])
        #expect(report.added.map(\.postscriptName) == ["NotoFixture-Italic"])
        #expect(report.problems.count == 2, "\(report.problems)")
        #expect(registry.index.problems.count == 2)
    }

    @Test func rescanFindsNewAndChangedFilesAndTellsObservers() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: dir)
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [dir]))
        let seen = Mutex<[RegistrationReport]>([])
        let token = registry.addObserver { report in seen.withLock { $0.append(report) } }
        Fixtures.copy(["NotoFixture-Bold.ttf"], to: dir)
        let report = registry.rescan()
        #expect(report.added.map(\.postscriptName) == ["NotoFixture-Bold"])
        #expect(seen.withLock { $0.count } == 1)
        registry.removeObserver(token)
        try FileManager.default.removeItem(atPath: dir + "/NotoFixture-Bold.ttf")
        #expect(registry.rescan().removed.map(\.postscriptName) == ["NotoFixture-Bold"])
        #expect(seen.withLock { $0.count } == 1)
    }

    @Test func rulesReloadWithoutRescanning() throws {
        let rules = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(rules) }
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [Fixtures.families], rulesDirectory: rules))
        let before = try registry.resolve(ResolveQuery(family: "Avenir Fixture", weight: .semibold))
        #expect(before.match == .familyWeight)
        try "{\"family\": \"Avenir Fixture\", \"weightNames\": {\"semibold\": \"DemiBold\"}}".write(
            toFile: rules + "/avenir.json", atomically: true, encoding: .utf8)
        registry.reloadRules()
        let after = try registry.resolve(ResolveQuery(family: "Avenir Fixture", weight: .semibold))
        #expect(after.match == .exactName)
        #expect(after.face.postscriptName == "AvenirFixture-DemiBold")
    }

    @Test func queriesDuringChangesSeeWholeSnapshots() async throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: dir)
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [Fixtures.families]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<10 {
                    try registry.register(paths: [dir])
                    try registry.unregister(paths: [dir])
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<300 {
                        let index = registry.index
                        let count = index.family(named: "Noto Fixture")?.faces.count
                        #expect(count == 4 || count == 6)
                        let answer = try registry.resolve(
                            ResolveQuery(family: "Fixture Sans", weight: .bold, strict: true))
                        #expect(answer.face.postscriptName == "FixtureSans-Bold")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aConfiguredDirectoryThatDoesNotExistIsAnError() {
        #expect(throws: RegistryError.fileNotFound(path: "/nonexistent/fonts")) {
            try FontRegistry(configuration: RegistryConfiguration(fontDirectories: ["/nonexistent/fonts"]))
        }
    }
}

@Suite struct FontconfigComparisonTests {
    @Test func cssMatchingAndFontconfigDisagreeOn200AmongThinAndLight() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["FixtureSans-Thin.otf", "FixtureSans-Light.otf"], to: dir)
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [dir]))
        let ours = try registry.resolve(ResolveQuery(family: "Fixture Sans", weight: FontWeight(200)!, strict: true))
        #expect(ours.face.postscriptName == "FixtureSans-Thin")  // CSS: lighter first below 400
        let theirs = registry.fontconfigChoice(family: "Fixture Sans", weight: 200, italic: false)
        #expect(theirs?.postscriptName == "FixtureSans-Light")  // fontconfig: nearest on its own scale
        #expect(registry.fontconfigPatternCount == 2)
    }
}

@Suite struct ConfinementTests {
    @Test func linksUnderAConfinedRootMayNotLeadOutsideTheAllowedDirectoriesEvenWhenAddedLater() throws {
        let allowed = Fixtures.temporaryDirectory(), outside = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(allowed); Fixtures.cleanUp(outside) }
        let fonts = allowed + "/fonts"
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: allowed)
        Fixtures.copy(["NotoFixture-Italic.ttf"], to: outside)
        try FileManager.default.createSymbolicLink(
            atPath: fonts + "/inside.ttf", withDestinationPath: allowed + "/NotoFixture-Regular.ttf")
        let registry = try FontRegistry(configuration: RegistryConfiguration())
        let resolvedAllowed = try #require(FontScanner.realPath(allowed))
        let report = try registry.register(paths: [fonts], confinedTo: [resolvedAllowed])
        #expect(report.added.map(\.postscriptName) == ["NotoFixture-Regular"])
        // A link that escapes, added after the registration, is refused by the next rescan.
        try FileManager.default.createSymbolicLink(
            atPath: fonts + "/escape.ttf", withDestinationPath: outside + "/NotoFixture-Italic.ttf")
        let rescan = registry.rescan()
        #expect(rescan.added.isEmpty)
        let problem = try #require(registry.index.problems.first { $0.path.hasSuffix("escape.ttf") })
        #expect(problem.reason.contains("outside the allowed roots"))
        #expect(registry.index.face(postscriptName: "NotoFixture-Italic") == nil)
    }

    @Test func unconfinedRootsFollowLinksAnywhere() throws {
        let dir = Fixtures.temporaryDirectory(), outside = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir); Fixtures.cleanUp(outside) }
        Fixtures.copy(["NotoFixture-Italic.ttf"], to: outside)
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/link.ttf", withDestinationPath: outside + "/NotoFixture-Italic.ttf")
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [dir]))
        #expect(registry.index.face(postscriptName: "NotoFixture-Italic") != nil)
    }
}

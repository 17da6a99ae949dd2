import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// Issue 17, item 9 and "also found": registry changes leave nothing behind.
@Suite struct RegistryChurnTests {
    @Test func registeringTheSamePathTwiceInOneCallRegistersItOnce() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: dir)
        let registry = try FontRegistry(configuration: RegistryConfiguration())
        try registry.register(paths: [dir, dir, dir + "/"])
        #expect(registry.registeredPaths == [dir])
    }

    @Test func fontconfigsViewIsReplacedNotPiledUpAcrossChanges() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["FixtureSans-Thin.otf", "FixtureSans-Light.otf"], to: dir)
        let registry = try FontRegistry(configuration: RegistryConfiguration())
        for _ in 0..<50 {
            try registry.register(paths: [dir])
            #expect(registry.fontconfigPatternCount == 2)
            try registry.unregister(paths: [dir])
            #expect(registry.fontconfigPatternCount == 0)
        }
        try registry.register(paths: [dir])
        #expect(
            registry.fontconfigChoice(family: "Fixture Sans", weight: 200, italic: false)?.postscriptName
                == "FixtureSans-Light")
    }

    @Test func anUnwritableCacheIsReportedAsAProblem() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: dir)
        // A file where the cache directory should be: nothing can be written below it, even by root.
        let notADirectory = dir + "/cache"
        try Data("x".utf8).write(to: URL(fileURLWithPath: notADirectory))
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [dir], cacheDirectory: notADirectory))
        let problem = try #require(registry.index.problems.first { $0.path == notADirectory })
        #expect(problem.reason.contains("cannot write the index file"))
        #expect(registry.index.faces.count == 1)
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegSystem

@Suite struct FaceCacheTests {
    @Test func theCacheRoundTripsEveryFieldOfEveryFace() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        let scanner = FontScanner()
        _ = scanner.scan(roots: [
            Fixtures.fonts + "/variable", Fixtures.fonts + "/collection", Fixtures.fonts + "/color",
            Fixtures.matching + "/axis", Fixtures.matching + "/slant",
        ])
        let axisFaces = scanner.cache.values.flatMap(\.faces).filter { $0.family == "Axis Fixture" }
        #expect(axisFaces.contains { $0.coordinates.contains(VariationSetting(tag: "opsz", value: 48)) })
        try FaceCache.save(scanner.cache, path: dir + "/faces.cache")
        let loaded = FaceCache.load(path: dir + "/faces.cache")
        #expect(loaded.count == scanner.cache.count)
        for (path, file) in scanner.cache {
            let other = try #require(loaded[path])
            #expect(other.faces == file.faces)
            #expect(other.identity == file.identity && other.size == file.size && other.modified == file.modified)
        }
    }

    @Test func aCacheOfTheFormerVersionIsRebuiltNotMisread() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        let scanner = FontScanner()
        _ = scanner.scan(roots: [Fixtures.fonts + "/collection"])
        try FaceCache.save(scanner.cache, path: dir + "/faces.cache")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/faces.cache")))
        #expect(FaceCache.version == 3)
        bytes[4] = 2  // the little-endian version field after the magic: the version before coverage
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/old.cache"))
        #expect(FaceCache.load(path: dir + "/old.cache").isEmpty)
        #expect(!FaceCache.load(path: dir + "/faces.cache").isEmpty)
    }

    @Test func aDamagedOrForeignCacheIsIgnored() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        let scanner = FontScanner()
        _ = scanner.scan(roots: [Fixtures.fonts + "/collection"])
        try FaceCache.save(scanner.cache, path: dir + "/faces.cache")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/faces.cache")))
        bytes.removeLast(7)
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/cut.cache"))
        #expect(FaceCache.load(path: dir + "/cut.cache").isEmpty)
        try Data("FRFC garbage".utf8).write(to: URL(fileURLWithPath: dir + "/junk.cache"))
        #expect(FaceCache.load(path: dir + "/junk.cache").isEmpty)
        #expect(FaceCache.load(path: dir + "/none.cache").isEmpty)
    }

    @Test func aRegistryStartsFromTheCacheAndStillSeesChangedFiles() throws {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts)
        let configuration = RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: cache)
        let first = try FontRegistry(configuration: configuration)
        _ = first.fontconfigPatternCount  // the cache is written on the background queue
        #expect(FileManager.default.fileExists(atPath: cache + "/faces.cache"))
        try FileManager.default.removeItem(atPath: fonts + "/NotoFixture-Bold.ttf")
        try FileManager.default.copyItem(
            atPath: Fixtures.families + "/NotoFixture-Italic.ttf", toPath: fonts + "/NotoFixture-Bold.ttf")
        let second = try FontRegistry(configuration: configuration)
        #expect(Set(second.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Italic"])
    }

    @Test func aScanThatFindsOnlyCachedFilesLeavesTheCacheFileAloneEvenBesideABadFile() throws {
        let fonts = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts)
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: fonts + "/Broken.ttf"))
        let scanner = FontScanner()
        let first = scanner.scan(roots: [fonts])
        #expect(scanner.cacheChanged)
        #expect(first.problems.count == 1)
        _ = scanner.scan(roots: [fonts])
        #expect(!scanner.cacheChanged)  // the bad file is read again, but nothing the cache holds changed
        try FileManager.default.removeItem(atPath: fonts + "/NotoFixture-Bold.ttf")
        _ = scanner.scan(roots: [fonts])
        #expect(scanner.cacheChanged)
        Fixtures.copy(["NotoFixture-Italic.ttf"], to: fonts)
        _ = scanner.scan(roots: [fonts])
        #expect(scanner.cacheChanged)
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// The registry's own index file (`index.snapshot`): a warm start maps it and serves it in place;
/// anything it cannot trust gives a cold start that says why (issue 13).
@Suite struct WarmStartTests {
    private static let roots = [
        Fixtures.fonts + "/variable", Fixtures.fonts + "/collection", Fixtures.fonts + "/color",
        Fixtures.matching + "/axis", Fixtures.matching + "/slant", Fixtures.families,
    ]

    private static func key(_ face: FaceRecord) -> String {
        "\(face.file)#\(face.freetypeIndex)#\(face.postscriptName)"
    }

    private static func isCold(_ mode: FontRegistry.StartMode) -> Bool {
        if case .cold = mode { return true }
        return false
    }

    /// A registry over `fonts` with its index file in `cache`, and no system fonts.
    private static func registry(_ fonts: [String], cache: String) throws -> FontRegistry {
        try FontRegistry(configuration: RegistryConfiguration(fontDirectories: fonts, cacheDirectory: cache))
    }

    @Test func aSecondRegistryOnTheSameCacheStartsWarmWithEveryFaceUnchanged() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let cold = try Self.registry(Self.roots, cache: cache)
        #expect(Self.isCold(cold.startMode))
        // A cold start serves the file it just wrote, mapped (issue 29).
        #expect(cold.index.isMapped)
        let warm = try Self.registry(Self.roots, cache: cache)
        #expect(warm.startMode == .warm)
        #expect(warm.index.isMapped)
        #expect(warm.index.faceCount == cold.index.faceCount)
        #expect(warm.index.familyCount == cold.index.familyCount)
        let coldFaces = cold.index.faces.sorted { Self.key($0) < Self.key($1) }
        let warmFaces = warm.index.faces.sorted { Self.key($0) < Self.key($1) }
        #expect(coldFaces.map(Self.key) == warmFaces.map(Self.key))
        for (a, b) in zip(coldFaces, warmFaces) {
            #expect(a.weight == b.weight && a.style == b.style && a.family == b.family)
            #expect(a.coordinates == b.coordinates && a.axes == b.axes)
        }
    }

    @Test func aWarmRegistryAnswersEveryQueryAsTheColdOneDid() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let cold = try Self.registry(Self.roots, cache: cache)
        let warm = try Self.registry(Self.roots, cache: cache)
        #expect(warm.index.isMapped)
        var asked = 0
        for family in cold.index.families.map(\.name) {
            for weight: FontWeight in [.thin, .light, .regular, .medium, .semibold, .bold, .black] {
                for italic in [false, true] {
                    for boldText in [false, true] {
                        let query = ResolveQuery(
                            family: family, weight: weight, italic: italic, boldText: boldText)
                        #expect(try warm.resolve(query) == cold.resolve(query), "\(family) \(weight) \(italic)")
                        asked += 1
                    }
                }
            }
            #expect(warm.index.family(named: family)?.name == family)
        }
        #expect(asked > 100)
        for face in cold.index.faces {
            #expect(warm.index.face(postscriptName: face.postscriptName) != nil)
        }
    }

    @Test func theIndexFileIsReadableByItsOwnerOnly() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        _ = try Self.registry([Fixtures.families], cache: cache)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache + "/" + FontRegistry.indexFileName)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aChangedDirectoryGivesAColdStartThatSeesTheChange() throws {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts)
        _ = try Self.registry([fonts], cache: cache)
        #expect(!FileManager.default.fileExists(atPath: cache + "/faces.cache"))
        try FileManager.default.removeItem(atPath: fonts + "/NotoFixture-Bold.ttf")
        try FileManager.default.copyItem(
            atPath: Fixtures.families + "/NotoFixture-Italic.ttf", toPath: fonts + "/NotoFixture-Bold.ttf")
        let second = try Self.registry([fonts], cache: cache)
        #expect(Self.isCold(second.startMode))
        #expect(Set(second.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Italic"])
        let third = try Self.registry([fonts], cache: cache)
        #expect(third.startMode == .warm)
        #expect(Set(third.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Italic"])
    }

    @Test func aFileRewrittenInPlaceIsPickedUpByRescanOfAWarmRegistry() throws {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts)
        _ = try Self.registry([fonts], cache: cache)
        let warm = try Self.registry([fonts], cache: cache)
        #expect(warm.startMode == .warm)
        // Rewritten through the same directory entry: the directory's time and size stay.
        let italic = try Data(contentsOf: URL(fileURLWithPath: Fixtures.families + "/NotoFixture-Italic.ttf"))
        let handle = try #require(FileHandle(forWritingAtPath: fonts + "/NotoFixture-Bold.ttf"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: italic)
        try handle.close()
        let report = warm.rescan()
        #expect(!report.added.isEmpty)
        #expect(Set(warm.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Italic"])
        #expect(!warm.index.isMapped)
    }

    @Test func anotherConfigurationGivesAColdStart() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        _ = try Self.registry([Fixtures.families], cache: cache)
        let other = try Self.registry([Fixtures.families, Fixtures.fonts + "/variable"], cache: cache)
        #expect(Self.isCold(other.startMode))
        #expect(other.index.faces.contains { $0.file.hasPrefix(Fixtures.fonts + "/variable") })
    }

    @Test(arguments: ["version", "truncated", "flipped", "foreign", "empty"])
    func aDamagedIndexFileGivesAColdStartWithAReasonNotACrash(damage: String) throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let first = try Self.registry([Fixtures.families], cache: cache)
        let path = cache + "/" + FontRegistry.indexFileName
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "version": bytes[8] = 3  // the little-endian version after the 8-byte magic
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "flipped": bytes[bytes.count / 2] ^= 0x5A
        case "foreign": bytes = Array("FRSNAP\r\n not a snapshot at all".utf8)
        default: bytes = []
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let second = try Self.registry([Fixtures.families], cache: cache)
        guard case .cold(let reason) = second.startMode else {
            Issue.record("a damaged index file (\(damage)) gave a warm start")
            return
        }
        #expect(!reason.isEmpty)
        #expect(second.index.faceCount == first.index.faceCount)
        // The cold start wrote a good file again.
        #expect(try Self.registry([Fixtures.families], cache: cache).startMode == .warm)
    }
}

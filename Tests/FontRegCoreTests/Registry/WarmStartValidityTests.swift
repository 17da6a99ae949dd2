import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// A warm start trusts the index file by the font files themselves (issue 29): files a scan never
/// reads may come and go in a font folder, a font file added or rewritten is seen.
@Suite struct WarmStartValidityTests {
    /// A registry over `fonts` with its index file in `cache`, and no system fonts.
    private static func registry(_ fonts: [String], cache: String) throws -> FontRegistry {
        try FontRegistry(configuration: RegistryConfiguration(fontDirectories: fonts, cacheDirectory: cache))
    }

    private static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func fontconfigsUUIDFileAndAReadmeInAFontFolderKeepTheNextStartWarm() throws {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        try FileManager.default.createDirectory(atPath: fonts + "/sub", withIntermediateDirectories: true)
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: fonts)
        Fixtures.copy(["NotoFixture-Bold.ttf"], to: fonts + "/sub")
        let cold = try Self.registry([fonts], cache: cache)
        #expect(cold.startMode != .warm)
        try Self.write("0b5b2fc4-2d3c-4b5e-9a38-6f3c2b1e7d10", to: fonts + "/.uuid")
        try Self.write("0b5b2fc4-2d3c-4b5e-9a38-6f3c2b1e7d11", to: fonts + "/sub/.uuid")
        try Self.write("These fonts are fixtures.\n", to: fonts + "/README.txt")
        let warm = try Self.registry([fonts], cache: cache)
        #expect(warm.startMode == .warm, "\(warm.startMode)")
        #expect(warm.filesParsed == 0)
        // Changed again: still nothing a scan reads.
        try Self.write("Changed.\n", to: fonts + "/README.txt")
        try FileManager.default.removeItem(atPath: fonts + "/sub/.uuid")
        let again = try Self.registry([fonts], cache: cache)
        #expect(again.startMode == .warm, "\(again.startMode)")
        #expect(Set(again.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Bold"])
    }

    @Test func aFontFileAddedToAFontFolderGivesAColdStartThatReadsIt() throws {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: fonts)
        _ = try Self.registry([fonts], cache: cache)
        Fixtures.copy(["NotoFixture-Bold.ttf"], to: fonts)
        let second = try Self.registry([fonts], cache: cache)
        #expect(second.startMode != .warm)
        #expect(Set(second.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Bold"])
        #expect(second.filesParsed == 1)
    }

    @Test func aFontFileRewrittenInPlaceGivesAColdStartThatRereadsIt() throws {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts)
        _ = try Self.registry([fonts], cache: cache)
        // Through the same directory entry: the folder's own time and size stay.
        let italic = try Data(contentsOf: URL(fileURLWithPath: Fixtures.families + "/NotoFixture-Italic.ttf"))
        let handle = try #require(FileHandle(forWritingAtPath: fonts + "/NotoFixture-Bold.ttf"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: italic)
        try handle.close()
        let second = try Self.registry([fonts], cache: cache)
        #expect(second.startMode != .warm)
        #expect(Set(second.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Italic"])
        #expect(second.filesParsed == 1)
    }

    @Test func aRegistryWithDuplicateFacesStartsWarmWithTheSameGroupsAndAnswers() throws {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: fonts + "/" + folder, withIntermediateDirectories: true)
            Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts + "/" + folder)
        }
        let cold = try Self.registry([fonts], cache: cache)
        #expect(!cold.index.duplicates.isEmpty)
        let warm = try Self.registry([fonts], cache: cache)
        #expect(warm.startMode == .warm, "\(warm.startMode)")
        #expect(warm.index.isMapped)
        #expect(warm.index.duplicates == cold.index.duplicates)
        for weight: FontWeight in [.regular, .bold] {
            for boldText in [false, true] {
                let query = ResolveQuery(family: "Noto Fixture", weight: weight, boldText: boldText)
                #expect(try warm.resolve(query) == cold.resolve(query))
            }
        }
    }
}

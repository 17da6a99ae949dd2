import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegSystem

/// The registry's index file (issue 13): a warm start maps it and serves it without scanning;
/// any doubt about it gives a cold start with a reason, never a crash.
@Suite struct WarmStartTests {
    /// A cold registry over `fonts`, then the path of its index file.
    static func coldThenPath(_ configuration: RegistryConfiguration) throws -> String {
        let cold = try FontRegistry(configuration: configuration)
        #expect(cold.startMode != .warm)
        #expect(!cold.index.isMapped)
        return configuration.cacheDirectory! + "/" + FontRegistry.indexFileName
    }

    /// A font directory with two faces and an empty cache directory.
    static func corpus() -> (fonts: String, cache: String, configuration: RegistryConfiguration) {
        let fonts = Fixtures.temporaryDirectory(), cache = Fixtures.temporaryDirectory()
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts)
        return (fonts, cache, RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: cache))
    }

    @Test func theIndexFileRoundTripsEveryFieldOfEveryFaceAndFile() throws {
        let scanner = FontScanner()
        let result = scanner.scan(roots: [
            Fixtures.fonts + "/variable", Fixtures.fonts + "/collection", Fixtures.fonts + "/color",
            Fixtures.matching + "/axis", Fixtures.matching + "/slant", "/usr/share/fonts/truetype/lato/Lato-Bold.ttf",
        ])
        let index = FontIndex(faces: result.files.flatMap(\.faces), problems: result.problems)
        let bytes = SnapshotWriter.bytes(
            of: index, rules: .empty,
            registry: SnapshotRegistryPart(
                files: result.files, directories: scanner.directories, problems: [ScanProblem(path: "/x", reason: "y")],
                stamp: 42))
        let snapshot = try MappedSnapshot(bytes: bytes)
        #expect(snapshot.hasRegistryPart && snapshot.configStamp == 42)
        #expect(snapshot.directories == scanner.directories)
        #expect(snapshot.problems == [ScanProblem(path: "/x", reason: "y")])
        let files = snapshot.scannedFiles()
        #expect(files.count == result.files.count)
        var withCoverage = 0
        for file in result.files {
            let other = try #require(files[file.path])
            #expect(other.faces == file.faces)
            #expect(other.faces.map(\.coverage) == file.faces.map(\.coverage))
            #expect(other.identity == file.identity && other.size == file.size && other.modified == file.modified)
            #expect(snapshot.indexedFile(path: file.path)?.inode == file.identity.inode)
            withCoverage += file.faces.filter { !$0.coverage.isEmpty }.count
        }
        #expect(withCoverage > 0)
        #expect(snapshot.indexedFile(path: "/no/such/file.ttf") == nil)
        for (position, face) in index.faces.enumerated() {
            #expect(snapshot.face(at: position)?.coverage == face.coverage)
        }
    }

    @Test func aWarmStartServesTheMappedIndexWithoutParsingAFile() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        _ = try Self.coldThenPath(configuration)
        let warm = try FontRegistry(configuration: configuration)
        #expect(warm.startMode == .warm)
        #expect(warm.index.isMapped)
        #expect(warm.filesParsed == 0)
        #expect(warm.index.faceCount == 2)
        #expect(try warm.resolve(ResolveQuery(family: "Noto Fixture", weight: .bold)).face.postscriptName
            == "NotoFixture-Bold")
        // A rescan that finds nothing changed checks every file but parses none, and keeps serving mapped.
        warm.rescan()
        #expect(warm.filesParsed == 0)
        #expect(warm.index.isMapped)
        #expect(warm.index.generation == 2)
    }

    @Test func aWarmStartExaminesNoFileSoAFileRewrittenInPlaceIsPickedUpByRescan() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        _ = try Self.coldThenPath(configuration)
        // Rewritten in place (same name, no entry added or removed): the directory is unchanged.
        let italic = try Data(contentsOf: URL(fileURLWithPath: Fixtures.families + "/NotoFixture-Italic.ttf"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fonts + "/NotoFixture-Bold.ttf"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: italic)
        try handle.close()
        let warm = try FontRegistry(configuration: configuration)
        #expect(warm.startMode == .warm)
        // No per-file stat at a warm start: the old face is served until a rescan.
        #expect(warm.index.face(postscriptName: "NotoFixture-Bold") != nil)
        let report = warm.rescan()
        #expect(report.added.map(\.postscriptName) == ["NotoFixture-Italic"])
        #expect(report.removed.map(\.postscriptName) == ["NotoFixture-Bold"])
        #expect(!warm.index.isMapped)
        #expect(warm.filesParsed == 1)
        // The rescan rewrote the index file: the next start is warm and sees the new face.
        let next = try FontRegistry(configuration: configuration)
        #expect(next.startMode == .warm)
        #expect(Set(next.index.faces.map(\.postscriptName)) == ["NotoFixture-Regular", "NotoFixture-Italic"])
    }

    @Test func aChangedDirectoryGivesAColdStartThatReadsOnlyTheNewFile() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        _ = try Self.coldThenPath(configuration)
        Fixtures.copy(["NotoFixture-Italic.ttf"], to: fonts)
        let second = try FontRegistry(configuration: configuration)
        guard case .cold(let reason) = second.startMode else {
            Issue.record("expected a cold start")
            return
        }
        #expect(reason.contains(fonts))
        #expect(second.filesParsed == 1)
        #expect(second.index.faceCount == 3)
    }

    @Test func aDamagedOrForeignIndexFileGivesAColdStartWithAReason() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        let path = try Self.coldThenPath(configuration)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        func cold(_ bytes: Data) throws -> String {
            try? FileManager.default.removeItem(atPath: path)
            try bytes.write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            let registry = try FontRegistry(configuration: configuration)
            #expect(registry.index.faceCount == 2)
            guard case .cold(let reason) = registry.startMode else { return "warm" }
            return reason
        }
        var flipped = good
        flipped[flipped.count / 2] ^= 0xFF
        #expect(try cold(flipped).contains("checksum"))
        #expect(try cold(good.prefix(good.count - 9)).contains("truncated"))
        #expect(try cold(good.prefix(100)).contains("truncated"))
        var version = good
        version[8] = 3
        #expect(try cold(version).contains("version 3"))
        #expect(try cold(Data("not a snapshot at all".utf8)).contains("not a fontreg snapshot"))
        // A configuration that changes the index (here the file-size limit) does not take the file.
        try? FileManager.default.removeItem(atPath: path)
        try good.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        var other = configuration
        other.maximumFontFileSize = 1 << 20
        let registry = try FontRegistry(configuration: other)
        #expect(registry.startMode == .cold(reason: "the configuration (directories, files or limits) changed"))
        // Nor does a file others may write.
        try good.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o666)
        #expect(try FontRegistry(configuration: configuration).startMode != .warm)
    }

    @Test func theIndexFileIsPrivateAndReplacesTheFaceCache() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        try Data("FRFC old".utf8).write(to: URL(fileURLWithPath: cache + "/faces.cache"))
        let path = try Self.coldThenPath(configuration)
        let status = try Syscall.status(ofPath: path, followLinks: false)
        #expect(status.permissions & 0o777 == 0o600)
        #expect(!FileManager.default.fileExists(atPath: cache + "/faces.cache"))
    }

    @Test func thePublishedBytesHoldNoRegistryPart() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: fonts + "/Secret-Broken.ttf"))
        let path = try Self.coldThenPath(configuration)
        let own = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let secret = Array("Secret-Broken".utf8)
        func contains(_ bytes: [UInt8]) -> Bool {
            bytes.indices.dropLast(secret.count).contains { bytes[$0..<$0 + secret.count].elementsEqual(secret) }
        }
        #expect(contains(own))
        let warm = try FontRegistry(configuration: configuration)
        #expect(warm.startMode == .warm)
        #expect(warm.index.problems.map(\.path) == [fonts + "/Secret-Broken.ttf"])
        for index in [warm.index, try FontRegistry(configuration: configuration).index] {
            let published = index.publishedBytes(rules: warm.rules, generation: 9)
            #expect(!contains(published))
            let snapshot = try MappedSnapshot(bytes: published)
            #expect(!snapshot.hasRegistryPart)
            #expect(snapshot.generation == 9 && snapshot.faceCount == 2)
        }
    }

    /// Every resolve, candidate list, face lookup, listing and text answer of a warm (mapped)
    /// registry equals the cold (built) one's.
    @Test func theMappedIndexAnswersEveryQueryAsTheBuiltOne() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        var configuration = RegistryConfiguration(
            fontDirectories: [Fixtures.bundled] + ["families", "variable", "collection", "web", "color"].map {
                Fixtures.fonts + "/" + $0
            },
            fontFiles: FallbackFonts.files, rulesDirectory: Fixtures.bundled + "/rules", cacheDirectory: cache)
        configuration.includeSystemFonts = false
        let built = try FontRegistry(configuration: configuration)
        let mapped = try FontRegistry(configuration: configuration)
        #expect(mapped.startMode == .warm)
        let (a, b) = (built.index, mapped.index)
        #expect(!a.isMapped && b.isMapped)
        #expect(a.faces == b.faces)
        #expect(a.faces.map(\.coverage) == b.faces.map(\.coverage))
        #expect(a.faceCount == b.faceCount && a.familyCount == b.familyCount)
        #expect(a.families == b.families)
        #expect(a.families.map(\.faceCount) == b.families.map(\.faceCount))
        #expect(a.problems == b.problems && a.duplicates.isEmpty)
        for face in a.faces {
            #expect(b.face(postscriptName: face.postscriptName.lowercased()) == a.face(postscriptName: face.postscriptName))
            #expect(b.face(fullName: face.fullName.uppercased()) == a.face(fullName: face.fullName))
        }
        for family in a.families {
            #expect(b.family(named: family.name)?.files == family.files)
        }
        #expect(b.suggestions(for: "Lto") == a.suggestions(for: "Lto"))
        let queries = SnapshotEquivalenceTests.queries(families: a.families.map(\.name))
        for query in queries {
            let expected = Result { () throws(ResolveError) in try built.resolve(query) }
            #expect(Result { () throws(ResolveError) in try mapped.resolve(query) } == expected, "\(query)")
            let candidates = Result { () throws(ResolveError) in try built.candidates(query) }
            #expect(Result { () throws(ResolveError) in try mapped.candidates(query) } == candidates, "\(query)")
        }
        let text = "Hello, мир! שלום مرحبا नमस्ते สวัสดี 你好 こんにちは 😀👍 ∑"
        for families in ["Lato", "Noto Sans, sans-serif", "serif", "Nonexistent, monospace"] {
            for language in [nil, "ja", "zh-tw"] {
                let query = TextQuery(
                    families: TextQuery.families(from: families), style: ResolveQuery(family: "", weight: .bold),
                    language: language)
                let one = try TextResolver(resolver: built.resolver).resolve(text, query)
                let two = try TextResolver(resolver: mapped.resolver).resolve(text, query)
                #expect(one == two, "\(families) \(String(describing: language))")
            }
        }
    }
}

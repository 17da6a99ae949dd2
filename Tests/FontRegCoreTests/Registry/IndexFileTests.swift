import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegSystem

/// The registry's index file (issue 13): a warm start maps it and serves it without scanning;
/// any doubt about it gives a cold start with a reason, never a crash.
@Suite struct IndexFileTests {
    /// A cold registry over `fonts`, then the path of its index file.
    static func coldThenPath(_ configuration: RegistryConfiguration) throws -> String {
        let cold = try FontRegistry(configuration: configuration)
        #expect(cold.startMode != .warm)
        #expect(cold.index.isMapped)
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
                files: result.files, directories: scanner.directories,
                problems: [ScanProblem(path: "/x", reason: "y", kind: .notOwned)],
                stamp: 42))
        let snapshot = try MappedSnapshot(bytes: bytes)
        #expect(snapshot.hasRegistryPart && snapshot.configStamp == 42)
        #expect(snapshot.directories == scanner.directories)
        #expect(snapshot.problems == [ScanProblem(path: "/x", reason: "y", kind: .notOwned)])
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
        #expect(
            try warm.resolve(ResolveQuery(family: "Noto Fixture", weight: .bold)).face.postscriptName
                == "NotoFixture-Bold")
        // A rescan that finds nothing changed checks every file but parses none, and keeps serving mapped.
        warm.rescan()
        #expect(warm.filesParsed == 0)
        #expect(warm.index.isMapped)
        #expect(warm.index.generation == 2)
    }

    @Test func aColdStartServesItsNewIndexFileMappedAndItsFirstRescanParsesOnlyANewFile() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        let cold = try FontRegistry(configuration: configuration)
        #expect(cold.startMode != .warm)
        #expect(cold.index.isMapped)
        #expect(cold.filesParsed == 2)
        #expect(
            try cold.resolve(ResolveQuery(family: "Noto Fixture", weight: .bold)).face.postscriptName
                == "NotoFixture-Bold")
        // The scanner's records were dropped: the first change seeds them from the mapped file.
        Fixtures.copy(["NotoFixture-Italic.ttf"], to: fonts)
        let report = cold.rescan()
        #expect(cold.filesParsed == 3)
        #expect(report.added.map(\.postscriptName) == ["NotoFixture-Italic"])
        #expect(report.removed.isEmpty)
        #expect(cold.index.faceCount == 3)
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

    /// The published snapshot written in two pieces (a patched header and the mapped rest) is,
    /// byte for byte, the public part copied whole, patched and resealed as it was before.
    @Test func thePublishedPiecesAreThePublicPartCopiedPatchedAndResealed() throws {
        let (fonts, cache, configuration) = Self.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        let path = try Self.coldThenPath(configuration)
        let snapshot = try MappedSnapshot(path: path)
        #expect(snapshot.hasRegistryPart)
        for generation: UInt64 in [0, 9, 1 << 40] {
            let pieces = snapshot.withPublicParts(generation: generation) { head, rest in
                (head.count, [UInt8](head) + [UInt8](rest))
            }
            #expect(pieces.0 == 224)
            // The reference: the whole public part copied, its header patched, resealed.
            var whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))[0..<pieces.1.count].map { $0 }
            whole.withUnsafeMutableBytes { raw in
                typealias H = SnapshotLayout.Header
                raw.storeBytes(of: generation.littleEndian, toByteOffset: H.generation, as: UInt64.self)
                raw.storeBytes(of: UInt64(raw.count).littleEndian, toByteOffset: H.fileSize, as: UInt64.self)
                raw.storeBytes(of: UInt64(0), toByteOffset: H.superseded, as: UInt64.self)
                for field in [H.files, H.fileFaces, H.directories, H.problems, H.registryStrings, H.configStamp] {
                    raw.storeBytes(of: UInt64(0), toByteOffset: field, as: UInt64.self)
                }
                raw.storeBytes(of: UInt64(0), toByteOffset: H.registryFlags, as: UInt64.self)
            }
            SnapshotWriter.reseal(&whole)
            #expect(pieces.1 == whole)
            let published = try MappedSnapshot(bytes: pieces.1)
            #expect(!published.hasRegistryPart && published.generation == generation)
        }
    }

    /// The checksum of two pieces is the checksum of the two together, wherever the cut falls
    /// on a 32-byte block (the header's excluded words included).
    @Test func aChecksumOverTwoPiecesIsTheChecksumOfTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 31, 32, 100, 215, 216, 224, 225, 300, 1000, 4099] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.withUnsafeBytes { all in
                let whole = SnapshotHash.checksum(all)
                for cut in stride(from: 0, through: count, by: 32) {
                    let head = UnsafeRawBufferPointer(rebasing: all[0..<cut])
                    let rest = UnsafeRawBufferPointer(rebasing: all[cut...])
                    #expect(SnapshotHash.checksum(head: head, rest: rest) == whole, "\(count) bytes cut at \(cut)")
                }
            }
        }
    }

    /// Every resolve, candidate list, face lookup, listing and text answer of a warm (mapped)
    /// registry equals the cold (built) one's.
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegSystem

/// Each problem carries a kind set where it is made, and code decides by the kind, never by
/// the words of its reason (issue 23).
@Suite struct ScanProblemKindTests {
    @Test func theScannerSetsTheKindOfEveryProblemWhereItIsMade() throws {
        let fonts = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: fonts)
        Fixtures.copy(["empty.ttf", "not-a-font.ttf"], from: Fixtures.bad, to: fonts)
        #expect(mkfifo(fonts + "/pipe.ttf", 0o644) == 0)
        #expect(symlink(fonts + "/nowhere.ttf", fonts + "/dangling.ttf") == 0)
        let missing = fonts + "/no-such-directory"
        let result = FontScanner(maximumFileSize: 1000).scan(roots: [fonts, missing])
        let kinds = Dictionary(uniqueKeysWithValues: result.problems.map { ($0.path, $0.kind) })
        #expect(
            kinds == [
                fonts + "/NotoFixture-Regular.ttf": .tooLarge, fonts + "/empty.ttf": .notAFont,
                fonts + "/not-a-font.ttf": .notAFont, fonts + "/pipe.ttf": .notRegularFile,
                fonts + "/dangling.ttf": .notFollowed, missing: .missing,
            ])
        #expect(
            FontScanner.kind(errno: .permissionDenied) == .permissionDenied
                && FontScanner.kind(errno: .ioError) == .unreadable)
    }

    @Test func registrationRefusesByTheKindOfTheProblemNotTheWordsOfItsReason() {
        let denied = ScanProblem(path: "/f.ttf", reason: "cannot open it", kind: .permissionDenied)
        #expect(FontRegistry.refusal(of: "/f.ttf", denied) == .permissionDenied(path: "/f.ttf"))
        let worded = ScanProblem(path: "/f.ttf", reason: "permission denied: but not a font", kind: .notAFont)
        #expect(
            FontRegistry.refusal(of: "/f.ttf", worded)
                == .invalidFontData(path: "/f.ttf", reason: "permission denied: but not a font"))
    }

    @Test func aParsersProblemKeepsItsKindAcrossThePipeAndThePoolsOwnAreParserFailures() {
        for kind in ScanProblem.Kind.allCases {
            let reply = ParseReply.problem("why", kind: kind)
            #expect(ParseReply.decode(reply.encode(id: 7, path: "/x"))?.reply == reply)
            #expect(ScanProblem.Kind(code: kind.code) == kind)
        }
        #expect(Set(ScanProblem.Kind.allCases.map(\.code)).count == ScanProblem.Kind.allCases.count)
        #expect(
            ParseReply.problem("the font parser stopped") == .problem("the font parser stopped", kind: .parserFailed))
    }

    @Test func aProblemWithoutAKnownKindDecodesAsOther() throws {
        let old = try JSONDecoder().decode(ScanProblem.self, from: Data(#"{"path":"/a","reason":"b"}"#.utf8))
        #expect(old == ScanProblem(path: "/a", reason: "b", kind: .other))
        let newer = try JSONDecoder().decode(
            ScanProblem.self, from: Data(#"{"path":"/a","reason":"b","kind":"fromTheFuture"}"#.utf8))
        #expect(newer.kind == .other)
        let kept = ScanProblem(path: "/a", reason: "b", kind: .notOwned)
        #expect(try JSONDecoder().decode(ScanProblem.self, from: JSONEncoder().encode(kept)) == kept)
    }

    @Test func anIndexFileWithoutProblemKindsIsRescannedWithoutParsingAndWrittenWithThem() throws {
        let (fonts, cache, configuration) = IndexFileTests.corpus()
        defer { Fixtures.cleanUp(fonts); Fixtures.cleanUp(cache) }
        Fixtures.copy(["not-a-font.ttf"], from: Fixtures.bad, to: fonts)
        let path = try IndexFileTests.coldThenPath(configuration)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try MappedSnapshot(bytes: bytes).problems.map(\.kind) == [.notAFont])
        // As an earlier release wrote it: the flag cleared (the kind bytes are then ignored).
        bytes[SnapshotLayout.Header.registryFlags] &= ~UInt8(SnapshotLayout.RegistryFlag.problemKinds)
        SnapshotWriter.reseal(&bytes)
        #expect(try MappedSnapshot(bytes: bytes).problems.map(\.kind) == [.other])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let second = try FontRegistry(configuration: configuration)
        #expect(second.startMode == .cold(reason: "an index file of an earlier release (no problem kinds)"))
        #expect(second.filesParsed == 0)
        #expect(second.index.problems.map(\.kind) == [.notAFont])
        #expect(try FontRegistry(configuration: configuration).startMode == .warm)
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore

/// A user's own registration (`filesOwnedBy`) serves only files of that user at every rescan (issue 15).
@Suite struct FileOwnerRecheckTests {
    /// A uid that owns none of the test's files.
    static let stranger: uid_t = 65534

    @Test func aFileSwappedOrGivenToAnotherOwnerIsDroppedAtTheNextRescan() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf", "NotoFixture-Italic.ttf"], to: dir)
        let registry = try FontRegistry(configuration: RegistryConfiguration())
        let added = try registry.register(paths: [dir], filesOwnedBy: getuid())
        #expect(added.added.count == 3)

        // Bold is swapped for another owner's file (a new inode); Italic changes hands in place
        // (same inode, size and time: the scanner's cache would take it as unchanged).
        let swapped = dir + "/swap.tmp"
        try FileManager.default.copyItem(atPath: dir + "/NotoFixture-Bold.ttf", toPath: swapped)
        #expect(chown(swapped, Self.stranger, Self.stranger) == 0)
        #expect(rename(swapped, dir + "/NotoFixture-Bold.ttf") == 0)
        #expect(chown(dir + "/NotoFixture-Italic.ttf", Self.stranger, Self.stranger) == 0)

        let rescan = registry.rescan()
        #expect(Set(rescan.removed.map(\.postscriptName)) == ["NotoFixture-Bold", "NotoFixture-Italic"])
        #expect(registry.index.face(postscriptName: "NotoFixture-Regular") != nil)
        for name in ["NotoFixture-Bold.ttf", "NotoFixture-Italic.ttf"] {
            let problem = try #require(registry.index.problems.first { $0.path == dir + "/" + name })
            #expect(problem.kind == .notOwned)
            #expect(problem.reason == FontRegistry.fileNotOwnedReason)
        }
        // Given back, it is served again.
        #expect(chown(dir + "/NotoFixture-Italic.ttf", getuid(), getgid()) == 0)
        #expect(registry.rescan().added.map(\.postscriptName) == ["NotoFixture-Italic"])
    }

    @Test func withoutAnOwnerAnyOwnersFileIsServed() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: dir)
        #expect(chown(dir + "/NotoFixture-Regular.ttf", Self.stranger, Self.stranger) == 0)
        let registry = try FontRegistry(configuration: RegistryConfiguration())
        #expect(try registry.register(paths: [dir]).added.count == 1)
        #expect(registry.rescan().removed.isEmpty)
    }
}

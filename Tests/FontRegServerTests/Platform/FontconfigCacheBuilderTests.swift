import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegServer
@testable import FontRegSystem

/// The fontconfig cache builder (issue 28) with the built `fontregd --fontconfig-cache-worker`,
/// real fontconfig and real fonts: what a round writes, keeps and removes.
@Suite struct FontconfigCacheBuilderTests {
    static func builder(_ directory: TemporaryDirectory, faults: Bool = false) throws -> FontconfigCacheBuilder {
        try FileManager.default.createDirectory(atPath: directory.file("cache"), withIntermediateDirectories: true)
        return FontconfigCacheBuilder(
            cacheDirectory: directory.file("cache"), buildDirectory: directory.file(".cache-build"),
            executable: BuildProducts.executable("fontregd"),
            arguments: ["--fontconfig-cache-worker"] + (faults ? ["--test-faults"] : []),
            user: "nobody", timeoutSeconds: 60, logger: Logger())
    }

    static func fonts(_ directory: TemporaryDirectory, _ name: String) throws -> String {
        let path = directory.file(name)
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        let families = BuildProducts.fixtureFonts + "/families"
        try FileManager.default.copyItem(atPath: families + "/NeueFixture.ttf", toPath: path + "/NeueFixture.ttf")
        try FileManager.default.copyItem(
            atPath: families + "/AvenirFixture-Bold.ttf", toPath: path + "/sub/AvenirFixture-Bold.ttf")
        return path
    }

    @Test func aRoundWritesOneCachePerDirectoryTheNextKeepsThemAndDroppingADirectoryRemovesItsCaches() throws {
        let directory = TemporaryDirectory()
        let builder = try Self.builder(directory)
        let one = try Self.fonts(directory, "one")
        let two = try Self.fonts(directory, "two")
        let first = builder.refresh([one, two])
        #expect(first.complete)
        #expect(first.current.count == 4, "\(first.current)")
        #expect(first.written == 4)
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.file("cache")).sorted()
        #expect(written == first.current.sorted())
        #expect(written.allSatisfy(FontconfigCacheBuilder.isCacheName))
        let second = builder.refresh([one, two])
        #expect(second.written == 0, "current caches are read, not rebuilt")
        #expect(second.current == first.current)
        try FileManager.default.copyItem(
            atPath: BuildProducts.fixtureFonts + "/families/AvenirFixture-Regular.ttf",
            toPath: one + "/AvenirFixture-Regular.ttf")
        let third = builder.refresh([one])
        #expect(third.written == 1, "only the changed directory is scanned again")
        #expect(third.removed == 2, "the caches of the dropped directory and its subdirectory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file(".cache-build")).isEmpty)
    }

    @Test func aWorkerThatCrashesOrMakesAForbiddenCallIsKilledAndTheOtherDirectoriesAreStillCached() throws {
        let directory = TemporaryDirectory()
        let builder = try Self.builder(directory, faults: true)
        let good = try Self.fonts(directory, "good")
        let crash = try Self.fonts(directory, "crash")
        _ = FileManager.default.createFile(atPath: crash + "/parser-crash.ttf", contents: Data("x".utf8))
        let forbidden = try Self.fonts(directory, "forbidden")
        _ = FileManager.default.createFile(atPath: forbidden + "/parser-syscall.ttf", contents: Data("x".utf8))
        let round = builder.refresh([crash, forbidden, good])
        #expect(round.crashed == [crash: SIGSEGV, forbidden: SIGSYS], "the seccomp filter kills with SIGSYS")
        #expect(round.complete)
        // good and good/sub, and the subdirectories of the two skipped directories are never reached.
        #expect(round.current.count == 2, "\(round.current)")
        let again = builder.refresh([crash, forbidden, good])
        #expect(again.crashed.isEmpty, "an unchanged directory that crashed a worker is not tried again")
        #expect(again.current == round.current)
    }

    @Test func cacheNamesAreFontconfigsAndNothingElse() {
        #expect(FontconfigCacheBuilder.isCacheName("5df16bf61a90e46d2aeba2819ee6c5ea-le64.cache-8"))
        #expect(!FontconfigCacheBuilder.isCacheName("CACHEDIR.TAG"))
        #expect(!FontconfigCacheBuilder.isCacheName(".5df16bf61a90e46d2aeba2819ee6c5ea-le64.cache-8.1.tmp"))
        #expect(!FontconfigCacheBuilder.isCacheName("5df16bf61a90e46d2aeba2819ee6c5ea-le64.cache-"))
        #expect(!FontconfigCacheBuilder.isCacheName("../5df16bf61a90e46d2aeba2819ee6c5e-le64.cache-8"))
    }

    @Test func theWorkersMessagesReadBackAsWritten() {
        let request = FontconfigCacheRequest(
            buildDirectory: "/b", cacheDirectory: "/c", directories: ["/x", "/y\nz"], excluded: ["/x"])
        #expect(FontconfigCacheRequest.decode(request.encoded) == request)
        for reply: FontconfigCacheReply in [
            .started("/x"), .cached("/x", cacheFile: "/b/n", fonts: 3), .skipped("/y", "why"), .end,
        ] {
            #expect(FontconfigCacheReply.decode(reply.encoded) == reply)
        }
        #expect(FontconfigCacheReply.decode(Array("cached\0/x".utf8)) == nil)
    }
}

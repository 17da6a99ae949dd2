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

    /// A runtime directory as the bridge has it (`fontreg.conf`, `cache/`, `.cache-build/`) owned by
    /// `owner`, a registered directory whose `parser-escape` file makes the worker try to write the
    /// bridge file, the runtime directory, the cache directory and a world-writable directory and to
    /// read files outside its rules; every attempt must be refused with `EACCES` and the directory
    /// still cached, readable by a fresh unprivileged `fc-list`.
    static func escapeAttemptsAreRefused(
        worker: String, owner: String, executable: String, prefix: [String]
    ) throws {
        let directory = TemporaryDirectory()
        let user = try #require(WorkerSandbox.user(named: owner))
        let run = directory.file("run")
        try FileManager.default.createDirectory(atPath: run + "/cache", withIntermediateDirectories: true)
        let bridge = run + "/fontreg.conf"
        let secret = run + "/secret.txt"
        for file in [bridge, secret] { _ = FileManager.default.createFile(atPath: file, contents: Data("x\n".utf8)) }
        for path in [run, run + "/cache", bridge, secret] {
            #expect(chown(path, user.uid, user.gid) == 0)
            #expect(chmod(path, path == bridge || path == secret ? 0o644 : 0o755) == 0)
        }
        let open = directory.file("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o777)
        let fonts = try Self.fonts(directory, "hostile")
        let attempts = [
            "write \(bridge)", "remove \(bridge)", "create \(run)/planted.conf", "create \(run)/cache/planted",
            "create \(open)/planted", "read \(secret)", "read /etc/passwd",
            // Allowed, so that the probe itself is seen to work: reading a font, writing the build directory.
            "read \(fonts)/NeueFixture.ttf", "create \(run)/.cache-build/scratch",
        ]
        _ = FileManager.default.createFile(
            atPath: fonts + "/parser-escape.ttf", contents: Data(attempts.joined(separator: "\n").utf8))
        for path in [fonts, fonts + "/sub"] { #expect(chmod(path, 0o755) == 0) }
        // A link in a subdirectory to a font elsewhere: its target gets a read rule, so it is cached.
        let elsewhere = try directory.fontDirectory(
            "elsewhere", copying: [BuildProducts.fixtureFonts + "/families/FixtureSans-Bold.otf"])
        try FileManager.default.createSymbolicLink(
            atPath: fonts + "/sub/Linked.otf", withDestinationPath: elsewhere + "/FixtureSans-Bold.otf")
        let builder = FontconfigCacheBuilder(
            cacheDirectory: run + "/cache", buildDirectory: run + "/.cache-build", executable: executable,
            arguments: prefix + [BuildProducts.executable("fontregd"), "--fontconfig-cache-worker", "--test-faults"],
            user: worker, timeoutSeconds: 60, logger: Logger())
        let round = builder.refresh([fonts])
        let refused = attempts.dropLast(2).map { "\($0) \(EACCES)" }
        #expect(round.probes == refused + attempts.suffix(2).map { "\($0) 0" })
        #expect(try String(contentsOfFile: bridge, encoding: .utf8) == "x\n")
        #expect(!FileManager.default.fileExists(atPath: run + "/planted.conf"))
        #expect(!FileManager.default.fileExists(atPath: open + "/planted"))
        #expect(round.complete && round.crashed.isEmpty)
        #expect(round.current.count == 2, "hostile and hostile/sub: \(round.current)")
        #expect(round.written == 2)
        // A fresh fc-list as another unprivileged user reads those caches and scans nothing.
        let config = directory.file("fonts.conf")
        try """
        <?xml version="1.0"?>
        <fontconfig><dir>\(fonts)</dir><cachedir>\(run)/cache</cachedir></fontconfig>

        """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        let list = try runCommand(
            [
                "/usr/bin/setpriv", "--reuid", "fontreg-test-b", "--regid", "fontreg-test-b", "--clear-groups",
                "/usr/bin/fc-list", "--format", "%{family}\n",
            ],
            environment: [
                "FONTCONFIG_FILE": config, "HOME": "/nonexistent", "XDG_CACHE_HOME": "/nonexistent", "FC_DEBUG": "16",
            ])
        #expect(list.stdout.contains("FcCacheTimeValid dir \"\(fonts)\""), "\(list.stdout)")
        #expect(!list.stderr.contains("No writable cache directories"), "\(list.stderr)")
        #expect(list.stdout.contains("Neue"), "\(list.stdout)")
        #expect(list.stdout.contains("Avenir"), "\(list.stdout)")
        #expect(list.stdout.contains("Fixture Sans"), "the linked font: \(list.stdout)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aHijackedWorkerRunningAsNobodyCannotWriteTheRuntimeDirectoryOrReadOutsideItsRules() throws {
        try Self.escapeAttemptsAreRefused(worker: "nobody", owner: "root", executable: "/usr/bin/env", prefix: [])
    }

    /// The shipped unit's `DynamicUser=` case: the daemon is not root, so the worker stays the
    /// daemon's own user, who owns the runtime directory; only Landlock stands in the way.
    @Test(.timeLimit(.minutes(1)))
    func aHijackedWorkerRunningAsTheDaemonsOwnUserCannotWriteTheRuntimeDirectoryItOwns() throws {
        let daemon = try TestUser.a
        try Self.escapeAttemptsAreRefused(
            worker: daemon.name, owner: daemon.name, executable: "/usr/bin/setpriv",
            prefix: ["--reuid=\(daemon.uid)", "--regid=\(daemon.gid)", "--clear-groups"])
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
            .probed("write", path: "/r/fontreg.conf", error: EACCES),
        ] {
            #expect(FontconfigCacheReply.decode(reply.encoded) == reply)
        }
        #expect(FontconfigCacheReply.decode(Array("cached\0/x".utf8)) == nil)
    }
}

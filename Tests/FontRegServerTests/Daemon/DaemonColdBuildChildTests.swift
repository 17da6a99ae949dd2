import FontRegCore
import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON
@testable import Varlink

/// A cold start's index is built by a child process, `fontregd --build-index`, so that the
/// daemon's heap never holds the scan (issue 29 item 2); the daemon maps the file it wrote. When
/// the child fails, the daemon says why and scans the fonts itself.
@Suite("fontregd builds a cold start's index in a child process", .serialized)
struct DaemonColdBuildChildTests {
    static let registry = "io.fontreg.Registry"
    static let builtByChild = "the index was built by a child process and is served mapped"

    /// The running index builder below the daemon `pid`, if there is one.
    static func indexBuilder(of daemon: Int32) -> Int32? {
        ProcessTable.children(of: daemon).keys.first {
            ProcessTable.commandLine(of: $0).contains(" --build-index ")
        }
    }

    /// A font directory with two good fixture files and, with `holding`, one the tests' faults
    /// make a parser spin on until its CPU budget is spent: the index builder lives that long.
    static func fonts(in directory: TemporaryDirectory, holding: Bool = false) throws -> String {
        let regular = BuildProducts.fixtureFonts + "/families/NotoFixture-Regular.ttf"
        let bold = BuildProducts.fixtureFonts + "/families/NotoFixture-Bold.ttf"
        return try directory.fontDirectory(
            copying: holding ? [regular, bold, regular] : [regular, bold],
            as: ["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"] + (holding ? ["parser-hang.ttf"] : []))
    }

    /// The answers compared between starts: resolutions and the family list.
    static func answers(_ daemon: DaemonProcess) throws -> [String] {
        let client = try daemon.client()
        var answers: [String] = []
        for (family, weight) in [("Noto Fixture", 400), ("Noto Fixture", 700), ("Noto Fixture", 900), ("Nope", 400)] {
            let reply = try? client.call("\(registry).Resolve", ["family": .string(family), "weight": .int(weight)])
            answers.append(
                reply.map { "\($0["face"]?["file"]?.stringValue ?? "-") \($0["steps"] ?? .null)" } ?? "error")
        }
        answers.append("\(try client.call("\(registry).ListFamilies"))")
        return answers
    }

    @Test func aColdStartsIndexIsBuiltByAChildProcessServedMappedAndAnswersAsAnInProcessScan() throws {
        let directory = TemporaryDirectory()
        let fonts = try Self.fonts(in: directory)
        let cache = directory.file("cache")
        let child = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
        #expect(child.log.contains("cold start (no index file yet): " + Self.builtByChild), "\(child.log)")
        #expect(child.log.contains("(index builder): cold start"), "the child's own lines reach stderr: \(child.log)")
        let pid = child.process.processIdentifier
        #expect(
            DaemonColdStartMappingTests.mappings(of: pid, file: cache + "/" + FontRegistry.indexFileName).count > 0)
        #expect(
            FileManager.default.fileExists(atPath: cache + "/readability.cache"),
            "the child classified the files, for the daemon's start to reuse")
        #expect(child.log.contains("files' answers reused, 0 asked"), "\(child.log)")
        let built = try Self.answers(child)
        #expect(try child.stop() == 0)

        // The same fonts scanned in the daemon itself: no usable cache directory, so no child.
        let blocker = directory.file("not-a-directory")
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("a file\n".utf8))
        let inProcess = try DaemonProcess(
            directory: directory, fonts: [fonts], extraArguments: ["--watch", "no", "--cache-dir", blocker + "/cache"])
        #expect(!inProcess.log.contains("index builder"), "\(inProcess.log)")
        #expect(try Self.answers(inProcess) == built)
        #expect(try inProcess.stop() == 0)

        // The next start is warm from the file the child wrote.
        let warm = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
        #expect(warm.log.contains("warm start from the index file"), "\(warm.log)")
        #expect(!warm.log.contains("index builder"))
        #expect(try Self.answers(warm) == built)
        #expect(try warm.stop() == 0)
    }

    @Test func whenTheIndexBuilderIsKilledTheDaemonSaysSoAndScansTheFontsItself() throws {
        let directory = TemporaryDirectory()
        let fonts = try Self.fonts(in: directory, holding: true)
        let daemon = try DaemonProcess(
            directory: directory, fonts: [fonts], extraArguments: ["--watch", "no", "--parse-timeout", "2"],
            environment: ["FONTREG_TEST_PARSER_FAULTS": "1"], waitUntilServing: false)
        let pid = daemon.process.processIdentifier
        var builder: Int32?
        try waitFor("the index builder to start", timeout: 20) {
            builder = Self.indexBuilder(of: pid)
            return builder != nil
        }
        // As the OOM killer would.
        kill(try #require(builder), SIGKILL)
        try daemon.waitUntilAccepting(timeout: 60)
        #expect(daemon.log.contains("was killed by signal 9"), "\(daemon.log)")
        #expect(daemon.log.contains("scanning the fonts in this process"), "\(daemon.log)")
        #expect(!daemon.log.contains(Self.builtByChild), "\(daemon.log)")
        #expect(daemon.log.contains("cold start (no index file yet)"), "\(daemon.log)")
        let bold = try daemon.client().call("\(Self.registry).Resolve", ["family": "Noto Fixture", "weight": 700])
        #expect(bold["face"]?["file"]?.stringValue == fonts + "/NotoFixture-Bold.ttf", "\(bold)")
        #expect(try daemon.stop() == 0)
    }

    @Test func whenTheIndexBuilderCannotWriteTheIndexFileItExitsNonZeroAndTheDaemonScansItself() throws {
        let directory = TemporaryDirectory()
        let fonts = try Self.fonts(in: directory)
        // A cache directory both can write, where the index file's name is taken by a directory.
        let cache = directory.file("cache")
        try FileManager.default.createDirectory(
            atPath: cache + "/" + FontRegistry.indexFileName, withIntermediateDirectories: true)
        let daemon = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
        #expect(daemon.log.contains("(index builder): the index file was not written"), "\(daemon.log)")
        #expect(daemon.log.contains("failed with exit status 1"), "\(daemon.log)")
        #expect(daemon.log.contains("scanning the fonts in this process"), "\(daemon.log)")
        #expect(!daemon.log.contains(Self.builtByChild), "\(daemon.log)")
        let bold = try daemon.client().call("\(Self.registry).Resolve", ["family": "Noto Fixture", "weight": 700])
        #expect(bold["face"]?["file"]?.stringValue == fonts + "/NotoFixture-Bold.ttf", "\(bold)")
        #expect(try daemon.stop() == 0)
    }

    @Test func theIndexBuilderHoldsNoneOfTheDaemonsSocketsAndCannotNotifySystemd() throws {
        let directory = TemporaryDirectory()
        let fonts = try Self.fonts(in: directory, holding: true)
        let path = directory.file("activated.sock")
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(
            directory: directory, fonts: [fonts], extraArguments: ["--watch", "yes", "--parse-timeout", "2"],
            environment: ["NOTIFY_SOCKET": notify.path, "FONTREG_TEST_PARSER_FAULTS": "1"],
            socketPath: directory.file("unused.sock"),
            launcher: [
                "/usr/bin/systemd-socket-activate", "-l", path, "--fdname=varlink", "-E", "NOTIFY_SOCKET", "-E",
                "FONTREG_TEST_PARSER_FAULTS",
            ],
            waitUntilServing: false)
        // systemd-socket-activate listens first and starts fontregd (its own pid) at the first connection.
        let pid = daemon.process.processIdentifier
        var client: VarlinkClient?
        try waitFor("systemd-socket-activate to listen on \(path)", timeout: 10, interval: 0.02) {
            client = try? VarlinkClient(socketPath: path, timeout: 60)
            return client != nil
        }
        var builder: Int32?
        try waitFor("the index builder to start", timeout: 20) {
            builder = Self.indexBuilder(of: pid)
            return builder != nil
        }
        let child = try #require(builder)
        let daemonSockets = Set(ProcessTable.descriptors(of: pid).values.filter { $0.hasPrefix("socket:") })
        #expect(!daemonSockets.isEmpty, "the daemon holds the socket systemd passed")
        let inherited = ProcessTable.descriptors(of: child).filter { daemonSockets.contains($0.value) }
        #expect(inherited.isEmpty, "the index builder holds the daemon's sockets \(inherited)")
        let environment = ProcessTable.environment(of: child)
        #expect(!environment.isEmpty, "the index builder's environment was read")
        for name in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] {
            #expect(!environment.contains { $0.hasPrefix(name + "=") }, "\(name) reached the index builder")
        }
        #expect(ProcessTable.environment(of: pid).contains { $0.hasPrefix("LISTEN_FDS=") })
        let connected = try #require(client)
        let status = try connected.call("\(Self.registry).GetStatus")
        #expect(status["faces"] == 2, "\(status)")
        #expect(notify.messages(until: "READY=1").joined().contains("READY=1"))
        #expect(daemon.log.contains(Self.builtByChild), "\(daemon.log)")
        #expect(try daemon.stop() == 0)
    }
}

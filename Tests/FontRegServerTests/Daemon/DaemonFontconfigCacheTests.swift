import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON

/// Issue 28: the bridge's `<cachedir>` holds fontconfig's caches of the registered directories,
/// built by the confined cache worker, so a fresh `fc-list` running as an unprivileged user with
/// no writable cache directory reads them and scans nothing.
@Suite("fontregd fontconfig caches")
struct DaemonFontconfigCacheTests {
    typealias Bridge = DaemonFontconfigBridgeTests.Bridge

    /// The cache files in the bridge's cache directory.
    static func cacheFiles(_ bridge: Bridge) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bridge.directory.file("bridge/cache"))) ?? []
        return names.filter { $0.contains(".cache-") && !$0.hasPrefix(".") }.sorted()
    }

    /// Runs `fc-list` as `nobody` with a configuration that is only the bridge file, no writable
    /// cache directory and fontconfig's cache debugging on (`FC_DEBUG=16`).
    static func unprivilegedList(_ bridge: Bridge, _ family: String) throws -> DaemonFontconfigBridgeTests.ToolOutput {
        let config = bridge.directory.file("only-bridge.conf")
        if !FileManager.default.fileExists(atPath: config) {
            let text = """
                <?xml version="1.0"?>
                <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
                <fontconfig><include>\(bridge.generated)</include></fontconfig>

                """
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o644)  // nobody must read it, whatever the umask
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid", "nobody", "--regid", "nogroup", "--clear-groups", "/usr/bin/fc-list", family, "--format",
            "%{family}|%{file}\n",
        ]
        process.environment = [
            "FONTCONFIG_FILE": config, "HOME": "/nonexistent", "XDG_CACHE_HOME": "/nonexistent", "FC_DEBUG": "16",
            "PATH": "/usr/bin:/bin",
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The faces listed (fontconfig prints its debugging output to standard output too).
    static func faces(_ output: DaemonFontconfigBridgeTests.ToolOutput) -> [Substring] {
        output.stdout.split(separator: "\n").filter { $0.contains("|") }
    }

    /// Whether fontconfig's debugging output says it used a valid cache of `directory` and never
    /// had to write one (it complains of no writable cache directory only when it must write).
    static func readFromCache(_ output: DaemonFontconfigBridgeTests.ToolOutput, _ directory: String) -> Bool {
        output.stdout.contains("FcCacheTimeValid dir \"\(directory)\"")
            && !output.stderr.contains("No writable cache directories")
    }

    @Test func aFreshUnprivilegedFcListReadsTheDaemonsCacheAndScansNothingAndTheCacheGoesOnUnregister() throws {
        let bridge = try Bridge(fonts: [
            "avenir/sub": ["AvenirFixture-Regular.ttf"], "avenir": ["AvenirFixture-Bold.ttf"],
        ])
        let avenir = bridge.allowed + "/avenir"
        // The daemon's own (empty) configured directory is cached from the start.
        try waitFor("the configured directory's cache", timeout: 10, interval: 0.1) {
            Self.cacheFiles(bridge).count == 1
        }
        let configured = Self.cacheFiles(bridge)
        try bridge.call("Register", ["paths": [.string(avenir)]])
        var last = DaemonFontconfigBridgeTests.ToolOutput(status: -1, stdout: "", stderr: "")
        do {
            try waitFor("fc-list as nobody to list Avenir from the daemon's caches", timeout: 10, interval: 0.1) {
                last = try Self.unprivilegedList(bridge, "Avenir Fixture")
                return Self.faces(last).count == 2 && Self.readFromCache(last, avenir)
                    && Self.readFromCache(last, avenir + "/sub")
            }
        } catch {
            let log = (try? String(contentsOfFile: bridge.daemon.logPath, encoding: .utf8)) ?? ""
            Issue.record("fc-list printed \(last.stdout) and \(last.stderr); the daemon logged \(log)")
            throw error
        }
        #expect(last.status == 0, "\(last.stderr)")
        let files = Self.cacheFiles(bridge)
        #expect(files.count == 3, "\(files)")
        for name in files {
            #expect(try DaemonFontconfigBridgeTests.mode(bridge.directory.file("bridge/cache/" + name)) == 0o644)
            #expect(name.prefix(33).last == "-" && name.prefix(32).allSatisfy(\.isHexDigit), "\(name)")
        }
        let owner = try FileManager.default.attributesOfItem(atPath: bridge.directory.file("bridge/cache"))[
            .ownerAccountID]
        #expect((owner as? Int) == Int(getuid()))
        try bridge.call("Unregister", ["paths": [.string(avenir)]])
        try waitFor("the caches of the unregistered directories to be removed", timeout: 10, interval: 0.1) {
            Self.cacheFiles(bridge) == configured
        }
    }

    @Test func aFontAddedToAWatchedRegisteredDirectoryIsInTheRebuiltCache() throws {
        let bridge = try Bridge(fonts: ["neue": ["NeueFixture.ttf"]], watch: true)
        let neue = bridge.allowed + "/neue"
        try bridge.call("Register", ["paths": [.string(neue)]])
        try waitFor("the first cache", timeout: 10, interval: 0.1) {
            Self.readFromCache(try Self.unprivilegedList(bridge, "Neue Fixture"), neue)
        }
        try FileManager.default.copyItem(
            atPath: DaemonFontconfigBridgeTests.families + "/AvenirFixture-Regular.ttf",
            toPath: neue + "/AvenirFixture-Regular.ttf")
        try waitFor("fc-list as nobody to list the added font from the rebuilt cache", timeout: 10, interval: 0.1) {
            let output = try Self.unprivilegedList(bridge, "Avenir Fixture")
            return Self.faces(output).contains { $0.hasSuffix(neue + "/AvenirFixture-Regular.ttf") }
                && Self.readFromCache(output, neue)
        }
        #expect(Self.cacheFiles(bridge).count == 2)  // the configured directory's and this one's
    }

    @Test func aFontThatCrashesTheCacheWorkerIsLoggedAndTheOtherDirectoriesAreStillCached() throws {
        let bridge = try Bridge(
            fonts: ["hostile": ["NeueFixture.ttf"], "good": ["AvenirFixture-Regular.ttf"]],
            environment: ["FONTREG_TEST_PARSER_FAULTS": "1"])
        let hostile = bridge.allowed + "/hostile"
        // With the tests' faults on, a file named parser-crash… crashes whichever worker reads it.
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: hostile + "/parser-crash.ttf"))
        try bridge.call("Register", ["paths": [.string(hostile)]])
        let good = bridge.allowed + "/good"
        try bridge.call("Register", ["paths": [.string(good)]])
        try waitFor("the good directory to be cached", timeout: 10, interval: 0.1) {
            // fontconfig scans the uncached hostile directory itself: only the good one's cache is checked.
            try Self.unprivilegedList(bridge, "Avenir Fixture").stdout.contains("FcCacheTimeValid dir \"\(good)\"")
        }
        let log = try String(contentsOfFile: bridge.daemon.logPath, encoding: .utf8)
        #expect(log.contains("the cache worker was killed by signal 11 while reading \(hostile)"), "\(log)")
        try bridge.call("GetStatus", [:])  // the daemon still answers
    }

    @Test func aDirectoryWithMoreEntriesThanTheCapIsLeftUncachedWithAClearLogLine() throws {
        let bridge = try Bridge(fonts: ["big": ["NeueFixture.ttf"]])
        let big = bridge.allowed + "/big"
        for index in 0..<20_000 {
            _ = FileManager.default.createFile(atPath: big + "/empty-\(index).txt", contents: nil)
        }
        try bridge.call("Register", ["paths": [.string(big)]])
        try waitFor("the cap to be logged", timeout: 20, interval: 0.2) {
            let log = try String(contentsOfFile: bridge.daemon.logPath, encoding: .utf8)
            return log.contains(
                "\(big) is not cached (it has 20001 entries, more than the 20000 the daemon caches); applications scan it themselves"
            )
        }
        // fontconfig as nobody finds no cache of it, so it would have to scan and write one.
        let output = try Self.unprivilegedList(bridge, "Neue Fixture")
        #expect(!output.stdout.contains("FcCacheTimeValid dir \"\(big)\""), "\(output.stdout)")
        #expect(output.stderr.contains("No writable cache directories"), "\(output.stderr)")
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCLI

/// `fontresolve` against the real `fontregd` on a temporary socket, serving the fixture fonts.
@Suite(.serialized) struct DaemonClientTests {
    let families = BuildProducts.fixtureFonts + "/families"

    /// Starts a daemon on the fixture families that accepts registrations under its temporary directory.
    func daemon() throws -> DaemonProcess {
        let directory = TemporaryDirectory()
        return try DaemonProcess(
            directory: directory, fonts: [families],
            extraArguments: ["--allow-root", directory.path, "--watch", "no"])
    }

    @Test func listFromTheDaemonPrintsWhatEmbeddedModePrints() throws {
        let daemon = try daemon()
        let remote = try FontResolveProcess.run(["list", "--socket", daemon.socketPath])
        let local = try FontResolveProcess.run(["list", "--fonts", families])
        #expect(remote.status == 0)
        #expect(remote.stdout == local.stdout)
        let remoteFaces = try FontResolveProcess.run([
            "list", "Hairline Fixture", "--json", "--socket", daemon.socketPath,
        ])
        let localFaces = try FontResolveProcess.run(["list", "Hairline Fixture", "--json", "--fonts", families])
        #expect(remoteFaces.stdout == localFaces.stdout)
    }

    @Test func resolveJSONFromTheDaemonEqualsEmbeddedJSON() throws {
        let daemon = try daemon()
        let query = ["resolve", "sf-fixture-display", "--weight", "semibold", "--bold-text", "--json"]
        let remote = try FontResolveProcess.run(query + ["--socket", daemon.socketPath])
        let local = try FontResolveProcess.run(query + ["--fonts", families])
        #expect(remote.status == 0)
        let reply = try #require(try FontResolveProcess.json(remote) as? [String: Any])
        #expect(reply["postscriptName"] as? String == "SFFixtureDisplay-Bold")
        #expect(reply["effectiveWeight"] as? Int == 700)
        #expect(remote.stdout == local.stdout)
    }

    @Test func environmentVariableNamesTheSocket() throws {
        let daemon = try daemon()
        let output = try FontResolveProcess.run(["status"], environment: ["FONTREG_SOCKET": daemon.socketPath])
        #expect(output.status == 0)
        #expect(output.stdout.contains("daemon:      fontregd"))
        #expect(output.stdout.contains("at \(daemon.socketPath)"))
        #expect(output.stdout.contains("faces:       106"))
    }

    @Test func perUserSocketIsFoundUnderXDGRuntimeDir() throws {
        let runtime = TemporaryDirectory()
        mkdir(runtime.file("fontreg"), 0o755)
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(
            directory: directory, fonts: [families], extraArguments: ["--watch", "no"],
            socketPath: runtime.file("fontreg/fontregd.sock"))
        let output = try FontResolveProcess.run(["status", "--json"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        let status = try #require(try FontResolveProcess.json(output) as? [String: Any])
        #expect(status["socket"] as? String == daemon.socketPath)
        #expect(status["mode"] as? String == "daemon")
    }

    @Test func unknownFamilyFromTheDaemonExitsOneWithItsSuggestions() throws {
        let daemon = try daemon()
        let output = try FontResolveProcess.run(["resolve", "Open Fixtur", "--strict", "--socket", daemon.socketPath])
        #expect(output.status == 1)
        #expect(output.stderr.contains("No registered family is named \"Open Fixtur\". Did you mean \"Open Fixture\""))
        let face = try FontResolveProcess.run(["face", "NoSuch-Face", "--socket", daemon.socketPath])
        #expect(face.status == 1)
        #expect(face.stderr.contains("No registered face has the PostScript name \"NoSuch-Face\""))
    }

    @Test func registerUnregisterAndRescanChangeTheDaemonsRegistry() throws {
        let daemon = try daemon()
        let copy = daemon.directory.file("var")
        try FileManager.default.copyItem(atPath: BuildProducts.fixtureFonts + "/variable", toPath: copy)
        let socket = ["--socket", daemon.socketPath]
        let added = try FontResolveProcess.run(["register", copy, "--json"] + socket)
        #expect(added.status == 0, "\(added.stderr)")
        let report = try #require(try FontResolveProcess.json(added) as? [String: Any])
        #expect((report["added"] as? [Any])?.count == 16)
        #expect(report["generation"] as? Int == 2)
        let again = try FontResolveProcess.run(["register", copy] + socket)
        #expect(again.status == 1)
        #expect(again.stderr.contains("is already registered"))
        #expect(!again.stderr.contains("Use rescan"), "a user who may not rescan is not told to")
        let listed = try FontResolveProcess.run(["list", "Fixture Var", "--names"] + socket)
        #expect(listed.stdout.contains("FixtureVar-SemiBoldItalic"))
        let rescan = try FontResolveProcess.run(["rescan"] + socket)
        #expect(rescan.status == 0)
        #expect(rescan.stdout.hasPrefix("Rescanned: 0 faces added, 0 removed"))
        let removed = try FontResolveProcess.run(["unregister", copy] + socket)
        #expect(removed.status == 0)
        Snapshot.expect(removed.stdout, matches: "unregister-variable.txt", temporary: daemon.directory.path)
        let gone = try FontResolveProcess.run(["unregister", copy] + socket)
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("is not registered"))
    }

    @Test func registerOutsideTheAllowedRootsExits77AndNamesThem() throws {
        let daemon = try daemon()
        let output = try FontResolveProcess.run(["register", "/etc", "--socket", daemon.socketPath])
        #expect(output.status == 77)
        #expect(output.stderr.contains("fontregd refuses /etc"))
        #expect(output.stderr.contains(daemon.directory.path))
    }

    @Test func daemonRefusingAChangeToAnotherUserExits77() throws {
        let daemon = try daemon()
        let output = try FontResolveProcess.run(["rescan", "--socket", daemon.socketPath], asNobody: true)
        #expect(output.status == 77)
        #expect(output.stderr.contains("fontregd refused Rescan to your user (uid 65534, gid 65534)"))
        let query = try FontResolveProcess.run(
            ["resolve", "Noto Fixture", "--socket", daemon.socketPath], asNobody: true)
        #expect(query.status == 0, "queries stay open to every user: \(query.stderr)")
    }

    @Test func socketClosedToTheUserExits77() throws {
        let daemon = try DaemonProcess(fonts: [families], extraArguments: ["--socket-mode", "0600", "--watch", "no"])
        let output = try FontResolveProcess.run(["list", "--socket", daemon.socketPath], asNobody: true)
        #expect(output.status == 77)
        #expect(output.stderr.contains("you may not connect to fontregd at \(daemon.socketPath) (permission denied)"))
    }

    @Test func daemonThatIsNotRunningExits69AndSaysHowToStartIt() throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("absent.sock")
        let output = try FontResolveProcess.run(["resolve", "Lato", "--socket", socket])
        #expect(output.status == 69)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("cannot reach fontregd at \(socket): no socket there"))
        #expect(output.stderr.contains("fontregd --socket \(socket) --fonts DIR"))
        #expect(output.stderr.contains("--fonts DIR"))
    }

    @Test func withoutAnySocketTheErrorNamesTheSocketsLookedAt() throws {
        // Only meaningful on a machine without a system daemon (test machines have none).
        guard !FileManager.default.fileExists(atPath: SocketLocator.systemSocket) else { return }
        let runtime = TemporaryDirectory()
        let output = try FontResolveProcess.run(["list"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(output.status == 69)
        #expect(
            output.stderr.contains("looked at /run/fontreg/fontregd.sock and \(runtime.path)/fontreg/fontregd.sock"))
    }

    @Test func daemonThatStoppedExits69() throws {
        let daemon = try daemon()
        try daemon.stop()
        // A stopped daemon may leave its socket file: connecting is refused.
        let output = try FontResolveProcess.run(["status", "--socket", daemon.socketPath])
        #expect(output.status == 69)
        #expect(output.stderr.contains("cannot reach fontregd"))
    }

    @Test func watchPrintsEachRegistrationAsAJSONLine() throws {
        let daemon = try daemon()
        let copy = daemon.directory.file("collection")
        try FileManager.default.copyItem(atPath: BuildProducts.fixtureFonts + "/collection", toPath: copy)
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: BuildProducts.executable("fontresolve"))
        watcher.arguments = ["watch", "--json", "--socket", daemon.socketPath]
        let out = Pipe()
        watcher.standardOutput = out
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        let reader = LineReader(out.fileHandleForReading)
        let first = try #require(reader.nextLine(timeout: 10))
        #expect(first.contains("\"event\":\"subscribed\""))
        let registered = try FontResolveProcess.run(["register", copy, "--socket", daemon.socketPath])
        #expect(registered.status == 0)
        let change = try #require(reader.nextLine(timeout: 10))
        let event = try #require(try JSONSerialization.jsonObject(with: Data(change.utf8)) as? [String: Any])
        #expect(event["event"] as? String == "changed")
        #expect((event["added"] as? [Any])?.count == 3)
        kill(watcher.processIdentifier, SIGINT)
        watcher.waitUntilExit()
        #expect(watcher.terminationReason == .uncaughtSignal, "Ctrl-C ends the watch")
    }

    @Test func watchExits69WhenTheDaemonStops() throws {
        let daemon = try daemon()
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: BuildProducts.executable("fontresolve"))
        watcher.arguments = ["watch", "--socket", daemon.socketPath]
        let out = Pipe()
        watcher.standardOutput = out
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        let reader = LineReader(out.fileHandleForReading)
        let first = try #require(reader.nextLine(timeout: 10))
        #expect(first.hasPrefix("watching: generation 1, 106 faces"))
        try daemon.stop()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        try waitFor("fontresolve watch to exit after the daemon stopped", timeout: 20, interval: 0.02) {
            !watcher.isRunning
        }
        #expect(watcher.terminationStatus == 69)
    }
}

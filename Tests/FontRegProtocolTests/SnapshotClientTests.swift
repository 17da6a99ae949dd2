import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegProtocol

/// `fontresolve resolve`, `list` and `face` read the snapshot the real `fontregd` publishes beside
/// its socket: the same output as over the socket, a hostile or corrupt file refused with a
/// warning, and a new generation noticed before the next answer.
@Suite(.serialized) struct SnapshotClientTests {
    let families = BuildProducts.fixtureFonts + "/families"

    /// A daemon on the fixture families, once its first snapshot is published.
    func daemon() throws -> DaemonProcess {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(
            directory: directory, fonts: [families], extraArguments: ["--allow-root", directory.path, "--watch", "no"])
        let path = RegistrySnapshot.path(forSocket: daemon.socketPath)
        try waitFor("the snapshot \(path) to be published", timeout: 10, interval: 0.05) {
            FileManager.default.fileExists(atPath: path)
        }
        return daemon
    }

    /// The commands compared both ways: every kind of answer, and answers the snapshot hands to the socket.
    static let commands: [[String]] = [
        ["resolve", "Avenir Fixture", "--weight", "600"],
        ["resolve", "avenir-fixture", "--weight", "bold", "--italic", "--explain"],
        ["resolve", "sf-fixture-display", "--weight", "semibold", "--bold-text", "--json"],
        ["resolve", "Hairline Fixture", "--weight", "250", "--style", "oblique 8deg", "--json"],
        ["resolve", "Hairline Fixture", "--weight", "100", "--width", "condensed", "--explain"],
        ["resolve", "No Such Family", "--strict"],
        ["resolve", "Avenir Fixtur", "--weight", "300", "--strict", "--json"],
        ["list"], ["list", "--json"], ["list", "--names"], ["list", "--face-names"],
        ["list", "Hairline Fixture"], ["list", "Avenir Fixture", "--json"], ["list", "No Such Family"],
        ["face", "AvenirFixture-Bold"], ["face", "avenirfixture-heavy", "--json"], ["face", "No-Such-Face"],
    ]

    @Test func everyAnswerFromTheSnapshotEqualsTheSocketsAnswer() throws {
        let daemon = try daemon()
        for command in Self.commands {
            let mapped = try FontResolveProcess.run(command + ["--socket", daemon.socketPath])
            let socket = try FontResolveProcess.run(command + ["--socket", daemon.socketPath, "--no-snapshot"])
            #expect(mapped.status == socket.status, "\(command)")
            #expect(mapped.stdout == socket.stdout, "\(command)")
            #expect(mapped.stderr == socket.stderr, "\(command)")
        }
    }

    /// A directory holding a copy of the daemon's snapshot beside something that is not a socket,
    /// so that an answer can only have come from the snapshot.
    func copyBesideADeadSocket(_ daemon: DaemonProcess, mode: mode_t = 0o644, damage: Damage = .none) throws -> String {
        let directory = daemon.directory.path + "/copy-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let socket = directory + "/dead.sock"
        _ = FileManager.default.createFile(atPath: socket, contents: Data())
        var bytes = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: RegistrySnapshot.path(forSocket: daemon.socketPath))))
        switch damage {
        case .none: break
        case .version: bytes[8] ^= 0x55
        case .familyFaces:
            // Every family's face count past the face table: found when the resolve reads its family.
            let field = SnapshotLayout.Header.families
            let count = bytes[field..<field + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            let offset = bytes[field + 4..<field + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            for family in 0..<count {
                bytes[offset + family * SnapshotLayout.familySize + SnapshotLayout.Family.faceCount + 3] = 0x7f
            }
        }
        let copy = RegistrySnapshot.path(forSocket: socket)
        _ = FileManager.default.createFile(atPath: copy, contents: Data(bytes))
        chmod(copy, mode)
        return socket
    }

    @Test func theSnapshotAnswersWithoutTheSocketAndNoSnapshotForcesTheSocket() throws {
        let daemon = try daemon()
        let socket = try copyBesideADeadSocket(daemon)
        let mapped = try FontResolveProcess.run(["resolve", "Avenir Fixture", "--weight", "700", "--socket", socket])
        #expect(mapped.status == 0)
        #expect(mapped.stdout.contains("AvenirFixture-Bold"))
        #expect(mapped.stderr.isEmpty)
        let forced = try FontResolveProcess.run([
            "resolve", "Avenir Fixture", "--weight", "700", "--socket", socket, "--no-snapshot",
        ])
        #expect(forced.status != 0)
    }

    /// What `copyBesideADeadSocket` damages in the copy.
    enum Damage: Sendable {
        /// Nothing.
        case none
        /// The layout version (refused when the file is opened).
        case version
        /// Every family record's face range (found when an answer reads the record).
        case familyFaces
    }

    @Test(arguments: [
        (mode_t(0o666), Damage.none, "writable by others"), (mode_t(0o644), Damage.version, "version"),
        (mode_t(0o644), Damage.familyFaces, "a family's faces"),
    ])
    func aWritableOrCorruptSnapshotIsRefusedWithAWarningAndTheSocketIsAsked(
        mode: mode_t, damage: Damage, reason: String
    ) throws {
        let daemon = try daemon()
        let socket = try copyBesideADeadSocket(daemon, mode: mode, damage: damage)
        let output = try FontResolveProcess.run(["resolve", "Avenir Fixture", "--weight", "700", "--socket", socket])
        #expect(output.status != 0, "the dead socket answered: the snapshot was trusted")
        #expect(output.stderr.contains("warning: not using the daemon's snapshot"))
        #expect(output.stderr.contains(reason), "\(output.stderr)")
    }

    @Test func aClientNoticesANewGenerationBeforeItsNextAnswer() throws {
        let daemon = try daemon()
        let snapshot = try RegistrySnapshot(socketPath: daemon.socketPath)
        let before = try snapshot.current()
        #expect(before.family(named: "Fixture Color") == nil)
        let extra = daemon.directory.path + "/extra"
        try FileManager.default.createDirectory(atPath: extra, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: BuildProducts.fixtureFonts + "/color/FixtureColor-Regular.ttf",
            toPath: extra + "/FixtureColor-Regular.ttf")
        let registered = try FontResolveProcess.run(["register", extra, "--socket", daemon.socketPath])
        #expect(registered.status == 0, "\(registered.stderr)")
        try waitFor("the snapshot to be replaced after the registration", timeout: 5, interval: 0.025) {
            !before.isCurrent
        }
        let after = try snapshot.current()
        #expect(after.generation > before.generation)
        #expect(after.face(postscriptName: "FixtureColor-Regular") != nil)
    }
}

/// The snapshot is one view for everyone: while the platform state makes views differ, it is withdrawn.
@Suite(.serialized) struct SnapshotWithdrawalTests {
    @Test func disablingAFaceWithdrawsTheSnapshotAndEnablingItPublishesItAgain() throws {
        let daemon = try SnapshotClientTests().daemon()
        let path = RegistrySnapshot.path(forSocket: daemon.socketPath)
        let disabled = try FontResolveProcess.run(["disable", "AvenirFixture-Bold", "--socket", daemon.socketPath])
        #expect(disabled.status == 0, "\(disabled.stderr)")
        // A disabled face must not resolve from the snapshot.
        try waitFor("the snapshot to be withdrawn after the face was disabled", timeout: 5, interval: 0.025) {
            !FileManager.default.fileExists(atPath: path)
        }
        let answer = try FontResolveProcess.run([
            "resolve", "Avenir Fixture", "--weight", "700", "--json", "--socket", daemon.socketPath,
        ])
        let reply = try #require(try FontResolveProcess.json(answer) as? [String: Any])
        #expect(reply["postscriptName"] as? String != "AvenirFixture-Bold")
        let enabled = try FontResolveProcess.run(["enable", "AvenirFixture-Bold", "--socket", daemon.socketPath])
        #expect(enabled.status == 0, "\(enabled.stderr)")
        try waitFor("the snapshot \(path) to be published again", timeout: 10, interval: 0.05) {
            FileManager.default.fileExists(atPath: path)
        }
    }
}

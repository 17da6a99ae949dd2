import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON

/// An administrator's persistent registration keeps its owner across a restart (issue 15).
@Suite(.serialized) struct PersistedOwnerTests {
    /// The owner `GetStatus` shows for the registration of `directory`, asked by root.
    static func owner(of directory: String, _ daemon: DaemonProcess) throws -> JSONValue? {
        let status = try DaemonUserFontsTests.callAsRoot(daemon, "GetStatus")
        let registrations = try #require(status["parameters"]?["registrations"]?.arrayValue)
        return registrations.first { $0["path"]?.stringValue == directory }?["owner"]
    }

    @Test func anAdministratorsPersistentRegistrationShowsItsOwnerAfterARestart() throws {
        let a = try TestUser.a
        let state = TemporaryDirectory()
        // An administrator (allow-uid) who is not root registers, inside an allowed root, for good.
        let directory = try a.makeFontDirectory(copying: DaemonUserFontsTests.noto)
        defer { a.removeFontDirectory(directory) }
        let arguments = ["--allow-uid", String(a.uid), "--allow-root", directory, "--watch", "no"]
        var daemon = try DaemonProcess(
            directory: state, fonts: DaemonUserFontsTests.publicFonts, extraArguments: arguments)
        let registered = try a.fontresolve(["register", directory, "--scope", "persistent"], socket: daemon.socketPath)
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(try Self.owner(of: directory, daemon) == .int(Int(a.uid)))

        #expect(try daemon.stop() == 0)
        daemon = try DaemonProcess(directory: state, fonts: DaemonUserFontsTests.publicFonts, extraArguments: arguments)
        #expect(try Self.owner(of: directory, daemon) == .int(Int(a.uid)))
        daemon.signal(SIGKILL)
        _ = try daemon.waitForExit()
        daemon = try DaemonProcess(directory: state, fonts: DaemonUserFontsTests.publicFonts, extraArguments: arguments)
        #expect(try Self.owner(of: directory, daemon) == .int(Int(a.uid)))
        // The owner's Unregister takes it out of the state file: gone after the next restart.
        #expect(try a.fontresolve(["unregister", directory], socket: daemon.socketPath).status == 0)
        #expect(try daemon.stop() == 0)
        daemon = try DaemonProcess(directory: state, fonts: DaemonUserFontsTests.publicFonts, extraArguments: arguments)
        #expect(try Self.owner(of: directory, daemon) == nil)
    }
}

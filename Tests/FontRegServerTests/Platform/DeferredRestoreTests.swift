import FontRegJSON
import FontRegTestSupport
import Foundation
import Testing

/// Users' persistent registrations do not hold the start back (issue 24): 5,000 of them kept
/// `fontregd` from answering for minutes, since they were restored before it served anyone.
/// Now the configured fonts are served first, and users' own fonts follow on the change worker.
@Suite(.serialized) struct DeferredRestoreTests {
    @Test(.timeLimit(.minutes(3)))
    func theDaemonAnswersWhileUsersRegistrationsAreRestoredAndServesThemAfter() throws {
        let a = try TestUser.a
        let fonts = try a.makeFontDirectory(copying: DaemonUserFontsTests.noto)
        defer { a.removeFontDirectory(fonts) }
        // 2,000 empty folders of the user's with 1,000-byte paths, persisted with its own fonts.
        let many = a.home + "/.local/share/fonts/fontreg-restore-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: many) }
        var records: [JSONValue] = [
            ["path": .string(fonts), "owner": .int(Int(a.uid)), "scope": "persistent", "private": true]
        ]
        let long = String(repeating: "d", count: 200)
        for n in 0..<2000 {
            let path = "\(many)/\(n)/\(long)/\(long)/\(long)/\(long)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            records.append(["path": .string(path), "owner": .int(Int(a.uid)), "scope": "persistent", "private": true])
        }
        #expect(chown(many, a.uid, a.gid) == 0)
        let walker = FileManager.default.enumerator(atPath: many)
        while let relative = walker?.nextObject() as? String { _ = chown(many + "/" + relative, a.uid, a.gid) }
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        let state: JSONValue = ["version": 1, "registrations": .array(records), "disabled": [], "boldText": [:]]
        #expect(
            FileManager.default.createFile(
                atPath: directory.file("state/platform.json"), contents: Data(state.serialized()),
                attributes: [.posixPermissions: 0o600]))

        let daemon = try DaemonProcess(
            directory: directory, fonts: DaemonUserFontsTests.publicFonts, extraArguments: ["--watch", "no"],
            waitUntilServing: false)
        var first: JSONValue?
        try waitFor("fontregd to answer GetStatus", timeout: 60, interval: 0.01) {
            first = (try? DaemonUserFontsTests.callAsRoot(daemon, "GetStatus"))?["parameters"]
            return first != nil
        }
        // Answered before the users' registrations were restored, saying so.
        let problems = first?["problems"]?.arrayValue ?? []
        #expect(problems.contains { $0["reason"]?.stringValue?.contains("still being restored") == true })
        try waitFor("the users' registrations to be restored", timeout: 120, interval: 0.05) {
            daemon.log.contains("restored 2001 users' persistent registrations in")
        }
        #expect(daemon.log.contains("after READY"))
        let after = try DaemonUserFontsTests.callAsRoot(daemon, "GetStatus")
        #expect(
            after["parameters"]?["problems"]?.arrayValue?.contains {
                $0["reason"]?.stringValue?.contains("still being restored") == true
            } == false)
        // The user's own fonts are served now.
        let resolved = try DaemonUserFontsTests.call(
            a, daemon, "Resolve", ["family": "Noto Fixture", "weight": "700", "strict": true])
        #expect(resolved["parameters"]?["postscriptName"] == "NotoFixture-Bold")
    }

    /// The state directory of a daemon to start: `count` empty folders of `user`'s with
    /// 1,000-byte paths persisted, and then `fonts`, persisted last (restored in the last chunk).
    ///
    /// - Returns: the daemon's directory and the folder of the empty folders (to remove).
    static func persistedState(of user: TestUser, count: Int, thenFonts fonts: String) throws
        -> (directory: TemporaryDirectory, many: String)
    {
        let many = user.home + "/.local/share/fonts/fontreg-restore-" + UUID().uuidString.prefix(8)
        var records: [JSONValue] = []
        let long = String(repeating: "d", count: 200)
        for n in 0..<count {
            let path = "\(many)/\(n)/\(long)/\(long)/\(long)/\(long)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            records.append(Self.record(path, of: user))
        }
        records.append(Self.record(fonts, of: user))
        _ = chown(many, user.uid, user.gid)
        let walker = FileManager.default.enumerator(atPath: many)
        while let relative = walker?.nextObject() as? String { _ = chown(many + "/" + relative, user.uid, user.gid) }
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        let state: JSONValue = ["version": 1, "registrations": .array(records), "disabled": [], "boldText": [:]]
        _ = FileManager.default.createFile(
            atPath: directory.file("state/platform.json"), contents: Data(state.serialized()),
            attributes: [.posixPermissions: 0o600])
        return (directory, many)
    }

    /// A persistent, private registration of `path` by `user`, as a state file holds it.
    static func record(_ path: String, of user: TestUser) -> JSONValue {
        ["path": .string(path), "owner": .int(Int(user.uid)), "scope": "persistent", "private": true]
    }

    /// Whether `GetStatus` (as root) still says users' registrations are being restored.
    static func stillRestoring(_ daemon: DaemonProcess) throws -> Bool {
        let status = try DaemonUserFontsTests.callAsRoot(daemon, "GetStatus")
        return status["parameters"]?["problems"]?.arrayValue?.contains {
            $0["reason"]?.stringValue?.contains("still being restored") == true
        } == true
    }

    @Test(.timeLimit(.minutes(3)))
    func rootsRegisterRunsBetweenRestoreChunksNotAfterTheWholeRestore() throws {
        let a = try TestUser.a
        let fonts = try a.makeFontDirectory(copying: DaemonUserFontsTests.noto)
        defer { a.removeFontDirectory(fonts) }
        let (directory, many) = try Self.persistedState(of: a, count: 2000, thenFonts: fonts)
        defer { try? FileManager.default.removeItem(atPath: many) }
        let variable = BuildProducts.fixtureFonts + "/variable"
        let daemon = try DaemonProcess(
            directory: directory, fonts: DaemonUserFontsTests.publicFonts,
            extraArguments: ["--watch", "no", "--allow-root", variable], waitUntilServing: false)
        try waitFor("fontregd to answer GetStatus", timeout: 60, interval: 0.01) {
            (try? Self.stillRestoring(daemon)) != nil
        }
        #expect(try Self.stillRestoring(daemon))
        let registered = try DaemonUserFontsTests.callAsRoot(daemon, "Register", ["paths": [.string(variable)]])
        #expect(registered["error"] == nil, "\(registered)")
        // Before, the restore was one change and root's Register ran only after all of it.
        #expect(try Self.stillRestoring(daemon), "root's Register waited for the whole restore")
        try waitFor("the users' registrations to be restored", timeout: 120, interval: 0.05) {
            daemon.log.contains("restored 2001 users' persistent registrations in")
        }
        let resolved = try DaemonUserFontsTests.call(
            a, daemon, "Resolve", ["family": "Noto Fixture", "weight": "700", "strict": true])
        #expect(resolved["parameters"]?["postscriptName"] == "NotoFixture-Bold")
    }

    @Test(.timeLimit(.minutes(3)))
    func aUsersUnregisterOfARegistrationNotYetRestoredRemovesItsPersistedRecordAndItsRestore() throws {
        let a = try TestUser.a
        let fonts = try a.makeFontDirectory(copying: DaemonUserFontsTests.noto)
        defer { a.removeFontDirectory(fonts) }
        let (directory, many) = try Self.persistedState(of: a, count: 2000, thenFonts: fonts)
        defer { try? FileManager.default.removeItem(atPath: many) }
        let daemon = try DaemonProcess(
            directory: directory, fonts: DaemonUserFontsTests.publicFonts, extraArguments: ["--watch", "no"],
            waitUntilServing: false)
        try waitFor("fontregd to answer GetStatus", timeout: 60, interval: 0.01) {
            (try? Self.stillRestoring(daemon)) != nil
        }
        #expect(try Self.stillRestoring(daemon))
        // Before, this was answered NotRegistered: the record was not loaded yet.
        let unregistered = try DaemonUserFontsTests.call(a, daemon, "Unregister", ["paths": [.string(fonts)]])
        #expect(unregistered["error"] == nil, "\(unregistered)")
        // Taken from the pending restore, not from the registry: nothing was indexed to remove.
        #expect(unregistered["parameters"]?["removed"] == [], "\(unregistered)")
        try waitFor("the users' registrations to be restored", timeout: 120, interval: 0.05) {
            daemon.log.contains("users' persistent registrations in") && daemon.log.contains("after READY")
        }
        let resolved = try DaemonUserFontsTests.call(
            a, daemon, "Resolve", ["family": "Noto Fixture", "weight": "700", "strict": true])
        #expect(resolved["parameters"]?["postscriptName"] == nil, "\(resolved)")
        let saved = try String(contentsOfFile: directory.file("state/platform.d/\(a.uid).json"), encoding: .utf8)
        #expect(!saved.contains(fonts))
        #expect(saved.contains(many))
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing
import Varlink

@testable import FontRegJSON

/// Issue 15 against the real daemon over its real socket, with real unprivileged users
/// (`fontreg-test-a`, `fontreg-test-b`, made by `scripts/setup-deps.sh --test`) running the
/// real `fontresolve` and a raw Varlink client.
@Suite("Users' own fonts, scopes, enable/disable and Bold Text", .serialized)
struct DaemonUserFontsTests {
    /// Four faces of one family that the daemon does not serve by itself.
    static let noto = ["Regular", "Bold", "Italic", "BoldItalic"].map {
        BuildProducts.fixtureFonts + "/families/NotoFixture-\($0).ttf"
    }
    /// The daemon's own fonts: public faces of two families.
    static let publicFonts = [BuildProducts.fixtureFonts + "/color", BuildProducts.fixtureFonts + "/collection"]

    /// One Varlink call as JSON text.
    static func message(_ method: String, _ parameters: [String: JSONValue] = [:]) -> String {
        let call: JSONValue = ["method": .string("io.fontreg.Registry." + method), "parameters": .object(parameters)]
        return String(decoding: call.serialized(), as: UTF8.self)
    }

    /// Calls one method as `user` and returns the reply object.
    static func call(
        _ user: TestUser, _ daemon: DaemonProcess, _ method: String, _ parameters: [String: JSONValue] = [:]
    ) throws -> JSONValue {
        let replies = try user.varlink([message(method, parameters)], socket: daemon.socketPath)
        return try JSONParser.parse(Array(try #require(replies.first).utf8))
    }

    /// Calls one method as root.
    static func callAsRoot(_ daemon: DaemonProcess, _ method: String, _ parameters: [String: JSONValue] = [:])
        throws -> JSONValue
    {
        let client = try daemon.client()
        defer { client.close() }
        do {
            return ["parameters": .object(try client.call("io.fontreg.Registry." + method, parameters))]
        } catch {
            return ["error": .string("\(error)")]
        }
    }

    @Test func aUserRegistersResolvesAndUnregistersOwnFontsWhichNobodyElseSees() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let daemon = try DaemonProcess(fonts: Self.publicFonts)
        let directory = try a.makeFontDirectory(copying: Self.noto)
        defer { a.removeFontDirectory(directory) }
        let socket = daemon.socketPath

        let registered = try a.fontresolve(["register", directory], socket: socket)
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(registered.stdout.contains("Registered 4 faces"))
        let resolved = try a.fontresolve(
            ["resolve", "Noto Fixture", "--weight", "700", "--strict", "--json"], socket: socket)
        #expect(resolved.status == 0)
        #expect(resolved.stdout.contains(directory + "/NotoFixture-Bold.ttf"))
        let status = try a.fontresolve(["status"], socket: socket)
        #expect(status.stdout.contains("uid \(a.uid), session, own fonts"))

        // The other user, and root, see nothing of it: not in resolution, listings, status or errors.
        for method in ["Resolve", "Candidates"] {
            let reply = try Self.call(b, daemon, method, ["family": "Noto Fixture", "strict": true])
            #expect(reply["error"] == "io.fontreg.Registry.FamilyNotFound")
        }
        for reply in [
            try Self.call(b, daemon, "ListFaces"), try Self.call(b, daemon, "ListFamilies"),
            try Self.call(b, daemon, "GetStatus"), try Self.callAsRoot(daemon, "GetStatus"),
            try Self.callAsRoot(daemon, "ListFaces"),
        ] {
            #expect(!String(decoding: reply.serialized(), as: UTF8.self).contains(a.home))
        }
        #expect(
            try Self.call(b, daemon, "GetFace", ["postscriptName": "NotoFixture-Bold"])["error"]
                == "io.fontreg.Registry.FaceNotFound")
        let rootResolve = try Self.callAsRoot(daemon, "Resolve", ["family": "Noto Fixture", "strict": true])
        #expect(rootResolve["error"] != nil)

        // Everything else is refused with a typed error, and fontresolve exits 77.
        let refusals: [(TestUser, String, [String: JSONValue])] = [
            (b, "Unregister", ["paths": [.string(directory)]]),
            (b, "Register", ["paths": [.string(directory)]]),
            (a, "Register", ["paths": [.string(BuildProducts.fixtureFonts + "/families")]]),
            (a, "Unregister", ["paths": [.string(BuildProducts.fixtureFonts + "/color")]]),
            (a, "Rescan", [:]),
        ]
        for (user, method, parameters) in refusals {
            let reply = try Self.call(user, daemon, method, parameters)
            #expect(reply["error"] == "io.fontreg.Registry.PermissionDenied", "\(user.name) \(method)")
            #expect(reply["parameters"]?["uid"] == .int(Int(user.uid)))
        }
        #expect(try b.fontresolve(["unregister", directory], socket: socket).status == 77)
        #expect(try b.fontresolve(["register", directory], socket: socket).status == 77)
        #expect(try a.fontresolve(["rescan"], socket: socket).status == 77)
        // A file in the user's own directory that the user does not own is refused too, and so is a
        // directory of theirs that holds one; nothing of either is kept.
        let foreign = try a.makeFontDirectory(copying: [])
        defer { a.removeFontDirectory(foreign) }
        try FileManager.default.copyItem(atPath: Self.noto[0], toPath: foreign + "/Foreign-Regular.ttf")
        for path in [foreign + "/Foreign-Regular.ttf", foreign] {
            let notOwned = try Self.call(a, daemon, "Register", ["paths": [.string(path)]])
            #expect(notOwned["error"] == "io.fontreg.Registry.PathNotAllowed", "\(path)")
            #expect(try a.fontresolve(["register", path], socket: socket).status == 77)
        }
        let registrations = try Self.call(a, daemon, "GetStatus")["parameters"]?["registrations"]?.arrayValue ?? []
        #expect(!registrations.contains { $0["path"]?.stringValue?.hasPrefix(foreign) == true })
        #expect(registrations.contains { $0["path"]?.stringValue == directory })

        let unregistered = try a.fontresolve(["unregister", directory], socket: socket)
        #expect(unregistered.status == 0, "\(unregistered.stderr)")
        let gone = try Self.call(a, daemon, "Resolve", ["family": "Noto Fixture", "strict": true])
        #expect(gone["error"] == "io.fontreg.Registry.FamilyNotFound")
    }

    /// Issue 24, item 4: a link in one's own font folder to a target one cannot read gets one
    /// answer, whether the target exists or not (it was PermissionDenied vs FileNotFound, a probe
    /// of any path on the machine, root-only directories and other users' homes included).
    @Test func aLinkToATargetTheUserCannotReadGetsTheSameAnswerWhetherItExistsOrNot() throws {
        let a = try TestUser.a
        let daemon = try DaemonProcess(fonts: Self.publicFonts)
        let directory = try a.makeFontDirectory(copying: [])
        defer { a.removeFontDirectory(directory) }
        let secret = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(secret) }
        chmod(secret, 0o700)
        try FileManager.default.copyItem(atPath: Self.noto[0], toPath: secret + "/hidden.ttf")
        let targets = [
            secret + "/hidden.ttf", secret + "/absent.ttf", secret, secret + "/absent-directory",
            "/root", "/root/absent",
        ]
        var answers: Set<String> = []
        for (number, target) in targets.enumerated() {
            let link = directory + "/probe-\(number)"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            lchown(link, a.uid, a.gid)
            let reply = try Self.call(a, daemon, "Register", ["paths": [.string(link)]])
            let error = reply["error"]?.stringValue ?? "no error: \(reply)"
            answers.insert(error)
        }
        #expect(answers == ["io.fontreg.Registry.PermissionDenied"], "\(answers)")
        // A folder the user may read still registers, and a missing name in it is FileNotFound:
        // what the user could see for itself.
        let missing = try Self.call(a, daemon, "Register", ["paths": [.string(directory + "/nothing-here")]])
        #expect(missing["error"]?.stringValue == "io.fontreg.Registry.FileNotFound", "\(missing)")
    }

    @Test func sharedUserFontsAreSeenByOtherUsersButStillUnregisteredOnlyByTheirOwner() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let daemon = try DaemonProcess(fonts: Self.publicFonts, extraArguments: ["--share-user-fonts", "yes"])
        let directory = try a.makeFontDirectory(copying: Self.noto)
        defer { a.removeFontDirectory(directory) }
        #expect(try a.fontresolve(["register", directory], socket: daemon.socketPath).status == 0)
        let seen = try Self.call(b, daemon, "Resolve", ["family": "Noto Fixture", "strict": true])
        #expect(seen["parameters"]?["postscriptName"] == "NotoFixture-Regular")
        #expect(try b.fontresolve(["unregister", directory], socket: daemon.socketPath).status == 77)
    }

    @Test func monitorEventsNeverNameAnotherUsersFontsOrSettings() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let daemon = try DaemonProcess(
            fonts: Self.publicFonts, extraArguments: ["--allow-root", BuildProducts.fixtureFonts + "/variable"])
        let directory = try a.makeFontDirectory(copying: Self.noto)
        defer { a.removeFontDirectory(directory) }
        let (watcher, events) = try b.monitor(socket: daemon.socketPath)
        defer { kill(watcher.processIdentifier, SIGKILL) }
        let subscribed = try #require(events.nextLine(timeout: 10))
        #expect(subscribed.contains("\"subscribed\""))
        #expect(try a.fontresolve(["register", directory], socket: daemon.socketPath).status == 0)
        let changed = try JSONParser.parse(Array(try #require(events.nextLine(timeout: 10)).utf8))
        #expect(changed["parameters"]?["event"] == "changed")
        #expect(changed["parameters"]?["added"] == [])
        #expect(changed["parameters"]?["faces"] == 4)
        #expect(try a.fontresolve(["bold-text", "on"], socket: daemon.socketPath).status == 0)
        let preferences = try #require(events.nextLine(timeout: 10))
        #expect(preferences.contains("\"preferences\""))
        #expect(!preferences.contains(String(a.uid)) && !preferences.contains(a.home))
        // A public change is still announced with its faces.
        let client = try daemon.client()
        defer { client.close() }
        _ = try client.call(
            "io.fontreg.Registry.Register", ["paths": [.string(BuildProducts.fixtureFonts + "/variable")]])
        let announced = try #require(events.nextLine(timeout: 10))
        #expect(announced.contains("FixtureVar"))
    }

    @Test func aConnectionScopedRegistrationGoesWhenItsClientIsKilled() throws {
        let a = try TestUser.a
        let daemon = try DaemonProcess(fonts: Self.publicFonts)
        let directory = try a.makeFontDirectory(copying: Self.noto)
        defer { a.removeFontDirectory(directory) }
        let (client, reply) = try a.holdingClient(
            Self.message("Register", ["paths": [.string(directory)], "scope": "connection"]), socket: daemon.socketPath)
        defer { if client.isRunning { kill(client.processIdentifier, SIGKILL) } }
        #expect(reply.contains("NotoFixture-Bold"), "\(reply)")
        let status = try Self.call(a, daemon, "GetStatus")
        #expect(status["parameters"]?["registrations"]?.arrayValue?.contains { $0["scope"] == "connection" } == true)
        #expect(try Self.call(a, daemon, "Resolve", ["family": "Noto Fixture", "strict": true])["error"] == nil)

        kill(client.processIdentifier, SIGKILL)
        client.waitUntilExit()
        var error: JSONValue?
        try waitFor("the killed client's registration to go", timeout: 10, interval: 0.05) {
            error = try Self.call(a, daemon, "Resolve", ["family": "Noto Fixture", "strict": true])["error"]
            return error != nil
        }
        #expect(error == "io.fontreg.Registry.FamilyNotFound")
        let left = try Self.call(a, daemon, "GetStatus")["parameters"]?["registrations"]?.arrayValue
        #expect(left?.contains { $0["scope"] == "connection" } == false)
    }

    @Test func disabledFacesAndBoldTextSurviveSigkillAndRestart() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let state = TemporaryDirectory()
        var daemon = try DaemonProcess(directory: state, fonts: Self.publicFonts)
        let directory = try a.makeFontDirectory(copying: Self.noto)
        defer { a.removeFontDirectory(directory) }
        let socket = daemon.socketPath
        #expect(try a.fontresolve(["register", directory, "--scope", "persistent"], socket: socket).status == 0)
        // A user disables a face of their own; an administrator a public face; the user may not touch that one.
        #expect(try a.fontresolve(["disable", "NotoFixture-Bold"], socket: socket).status == 0)
        #expect(try Self.callAsRoot(daemon, "Disable", ["target": "FixtureColor-Regular"])["error"] == nil)
        let refused = try Self.call(a, daemon, "Disable", ["target": "Fixture Color", "kind": "family"])
        #expect(refused["error"] == "io.fontreg.Registry.PermissionDenied")
        #expect(try a.fontresolve(["enable", "FixtureColor-Regular"], socket: socket).status == 77)
        #expect(try b.fontresolve(["disable", "NotoFixture-Regular"], socket: socket).status != 0)
        #expect(try a.fontresolve(["bold-text", "on"], socket: socket).status == 0)

        func check(_ daemon: DaemonProcess, _ moment: String) throws {
            let bold = try Self.call(a, daemon, "Resolve", ["family": "Noto Fixture", "weight": "700", "strict": true])
            #expect(bold["parameters"]?["postscriptName"] != "NotoFixture-Bold", "\(moment)")
            let trace = bold["parameters"]?["trace"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(trace.contains { $0.contains("NotoFixture-Bold") && $0.contains("is disabled") }, "\(moment)")
            let faces = try Self.call(a, daemon, "ListFaces", ["family": "Noto Fixture"])
            #expect(faces["parameters"]?["disabled"]?.arrayValue?.map { $0["postscriptName"] } == ["NotoFixture-Bold"])
            let listed = try a.fontresolve(["list", "Noto Fixture"], socket: daemon.socketPath)
            #expect(listed.stdout.contains("disabled (not resolved; fontresolve enable NAME): NotoFixture-Bold"))
            let color = try Self.call(b, daemon, "Resolve", ["family": "Fixture Color", "strict": true])
            #expect(color["error"] == "io.fontreg.Registry.FamilyNotFound", "\(moment)")
            // Bold Text: A's own setting applies to A's queries that do not say, not to B's.
            let mine = try Self.call(a, daemon, "Resolve", ["family": "Fixture Collection", "strict": true])
            #expect(mine["parameters"]?["effectiveWeight"] == 700, "\(moment)")
            let theirs = try Self.call(b, daemon, "Resolve", ["family": "Fixture Collection", "strict": true])
            #expect(theirs["parameters"]?["effectiveWeight"] == 400, "\(moment)")
            let asked = try Self.call(a, daemon, "Resolve", ["family": "Fixture Collection", "boldText": false])
            #expect(asked["parameters"]?["effectiveWeight"] == 400, "\(moment)")
            let setting = try a.fontresolve(["bold-text", "status"], socket: daemon.socketPath)
            #expect(setting.stdout.contains("Bold Text: on (your setting)"), "\(moment)")
            #expect(
                !String(decoding: try Self.call(b, daemon, "GetStatus").serialized(), as: UTF8.self).contains(a.home))
        }
        try check(daemon, "running")
        daemon.signal(SIGKILL)
        try daemon.waitForExit()
        daemon = try DaemonProcess(directory: state, fonts: Self.publicFonts)
        try check(daemon, "after SIGKILL")
        try daemon.stop()
        daemon = try DaemonProcess(directory: state, fonts: Self.publicFonts)
        try check(daemon, "after a restart")

        #expect(try a.fontresolve(["enable", "NotoFixture-Bold"], socket: socket).status == 0)
        let back = try Self.call(a, daemon, "Resolve", ["family": "Noto Fixture", "weight": "700", "strict": true])
        #expect(back["parameters"]?["postscriptName"] == "NotoFixture-Bold")
        #expect(try a.fontresolve(["unregister", directory], socket: socket).status == 0)
    }
}

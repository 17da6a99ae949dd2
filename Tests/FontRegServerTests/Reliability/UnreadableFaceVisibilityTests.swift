import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON
@testable import Varlink

/// Issue 24, item 7, from outside: root registered a user-writable folder, a link in it leads to a
/// font in a root-only 0700 directory inside the allowed root, and every user saw that font's
/// names, record and coverage. A face is visible to a caller only if the kernel lets that caller
/// open its file (uid, gid, groups); faces not every user may read are never published.
@Suite("fontregd shows each caller only the faces it could read", .serialized)
struct UnreadableFaceVisibilityTests {
    static let secretName = "Inter-Regular"
    static let groupName = "Lato-Italic"
    /// Cyrillic el with descender: Inter covers it, Lato does not.
    static let onlyTheSecretCovers = "\u{052F}"

    /// allowed/ (0755) holding team/ (0777, registered by root) with a public font and a link to
    /// vault/Inter-Regular.otf (vault 0700, root's), and group/ with a 0640 font of a's group.
    struct Layout {
        let directory = TemporaryDirectory()
        let a: TestUser
        let b: TestUser
        var allowed: String { directory.file("allowed") }
        var team: String { allowed + "/team" }
        var vault: String { allowed + "/vault" }
        var group: String { allowed + "/group" }
        var link: String { team + "/Inter-Regular.otf" }

        init() throws {
            (a, b) = (try TestUser.a, try TestUser.b)
            for folder in [team, vault, group] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try FileManager.default.copyItem(
                atPath: BuildProducts.realFonts + "/Lato/Lato-Regular.ttf", toPath: team + "/Lato-Regular.ttf")
            try FileManager.default.copyItem(
                atPath: BuildProducts.realFonts + "/Inter/Inter-Regular.otf", toPath: vault + "/Inter-Regular.otf")
            try FileManager.default.copyItem(
                atPath: BuildProducts.realFonts + "/Lato/Lato-Italic.ttf", toPath: group + "/Lato-Italic.ttf")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../vault/Inter-Regular.otf")
            chmod(allowed, 0o755)
            chmod(team, 0o777)
            chmod(vault, 0o700)
            chmod(vault + "/Inter-Regular.otf", 0o644)
            chmod(group, 0o755)
            chown(group + "/Lato-Italic.ttf", 0, a.gid)
            chmod(group + "/Lato-Italic.ttf", 0o640)
        }

        func daemon() throws -> DaemonProcess {
            let daemon = try DaemonProcess(
                directory: directory, fonts: [BuildProducts.fixtureFonts + "/collection"],
                extraArguments: ["--allow-root", allowed, "--watch", "no"])
            _ = try daemon.client().call(
                "io.fontreg.Registry.Register", ["paths": [.string(team), .string(group)]])
            return daemon
        }
    }

    /// The PostScript names in a `ListFaces` reply line.
    static func names(_ reply: String) throws -> Set<String> {
        let value = try JSONParser.parse(Array(reply.utf8))
        let faces = value["parameters"]?["faces"]?.arrayValue ?? []
        return Set(faces.compactMap { $0["postscriptName"]?.stringValue })
    }

    static let listFaces = #"{"method":"io.fontreg.Registry.ListFaces"}"#
    static let resolveSecret = #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Inter"}}"#
    static let getSecret = #"{"method":"io.fontreg.Registry.GetFace","parameters":{"postscriptName":"Inter-Regular"}}"#
    static let resolveText =
        #"{"method":"io.fontreg.Registry.ResolveText","parameters":{"text":"\#(onlyTheSecretCovers)","families":["No Such Family"]}}"#

    @Test func aLinkToAFontUnderARootOnlyDirectoryIsSeenByRootAndByNoUser() throws {
        let layout = try Layout()
        let daemon = try layout.daemon()
        let root = try daemon.client()
        let rootFaces = (try root.call("io.fontreg.Registry.ListFaces")["faces"]?.arrayValue ?? []).compactMap {
            $0["postscriptName"]?.stringValue
        }
        #expect(rootFaces.contains(Self.secretName), "root reads every file, so root sees the face: \(rootFaces)")
        let rootText = try root.call(
            "io.fontreg.Registry.ResolveText",
            ["text": .string(Self.onlyTheSecretCovers), "families": ["No Such Family"]])
        #expect("\(rootText)".contains(Self.secretName), "root's fallback reaches the face: \(rootText)")

        for user in [layout.a, layout.b] {
            let replies = try user.varlink(
                [Self.listFaces, Self.resolveSecret, Self.getSecret, Self.resolveText], socket: daemon.socketPath)
            try #require(replies.count == 4)
            let names = try Self.names(replies[0])
            #expect(names.contains("Lato-Regular"), "\(user.name) sees the public font: \(names)")
            #expect(!names.contains(Self.secretName), "\(user.name) lists the unreadable face: \(names)")
            // No reply names the face's file or family (the queries themselves name "Inter").
            for reply in replies {
                #expect(
                    !reply.contains("Inter-Regular.otf") && !reply.contains(#""family":"Inter""#),
                    "\(user.name): \(reply)")
            }
            #expect(replies[2].contains("FaceNotFound"), "\(replies[2])")
        }
        #expect(try daemon.stop() == 0)
    }

    @Test func aFileReadableThroughItsGroupIsSeenByAMemberAndNotByAnotherUser() throws {
        let layout = try Layout()
        let daemon = try layout.daemon()
        let member = try Self.names(try layout.a.varlink([Self.listFaces], socket: daemon.socketPath)[0])
        let other = try Self.names(try layout.b.varlink([Self.listFaces], socket: daemon.socketPath)[0])
        #expect(member.contains(Self.groupName), "a is in the file's group: \(member)")
        #expect(!other.contains(Self.groupName), "b may not read the file: \(other)")
        #expect(other.contains("Lato-Regular"), "\(other)")
        let resolved = try layout.b.varlink(
            [#"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Lato","italic":true}}"#],
            socket: daemon.socketPath)[0]
        #expect(!resolved.contains(Self.groupName), "\(resolved)")
        #expect(try daemon.stop() == 0)
    }

    /// A directory closed after indexing changes no file, so no generation follows: a `Rescan`
    /// asks the kernel about every file again.
    @Test func aDirectoryClosedAfterIndexingHidesItsFacesFromTheNextRescanOn() throws {
        let layout = try Layout()
        let daemon = try layout.daemon()
        let before = try Self.names(try layout.a.varlink([Self.listFaces], socket: daemon.socketPath)[0])
        #expect(before.contains(Self.groupName) && before.contains("Lato-Regular"), "\(before)")
        chmod(layout.group, 0o700)
        _ = try daemon.client().call("io.fontreg.Registry.Rescan")
        let after = try Self.names(try layout.a.varlink([Self.listFaces], socket: daemon.socketPath)[0])
        #expect(!after.contains(Self.groupName), "\(after)")
        #expect(after.contains("Lato-Regular"), "\(after)")
        #expect(try daemon.stop() == 0)
    }

    @Test func theSnapshotIsWithdrawnWhileAFaceNotEveryUserMayReadIsIndexed() throws {
        let layout = try Layout()
        let daemon = try DaemonProcess(
            directory: layout.directory, fonts: [BuildProducts.fixtureFonts + "/collection"],
            extraArguments: ["--allow-root", layout.allowed, "--watch", "no"])
        let snapshot = daemon.socketPath + ".snapshot"
        try waitFor("the first snapshot") { FileManager.default.fileExists(atPath: snapshot) }
        let root = try daemon.client()
        _ = try root.call("io.fontreg.Registry.Register", ["paths": [.string(layout.team)]])
        try waitFor("the snapshot withdrawn") { !FileManager.default.fileExists(atPath: snapshot) }
        // Without the link, every indexed file is readable by every user again: published again.
        unlink(layout.link)
        _ = try root.call("io.fontreg.Registry.Rescan")
        try waitFor("the snapshot published again") { FileManager.default.fileExists(atPath: snapshot) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        #expect(bytes.range(of: Data("Lato-Regular".utf8)) != nil)
        #expect(bytes.range(of: Data(Self.secretName.utf8)) == nil)
        #expect(try daemon.stop() == 0)
    }

    @Test func aRescanWithdrawsTheSnapshotWhenOnlyAFilesPermissionsMadeItRestricted() throws {
        let layout = try Layout()
        let open = layout.allowed + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o755)
        let font = open + "/Lato-Regular.ttf"
        try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Lato/Lato-Regular.ttf", toPath: font)
        chmod(font, 0o644)
        let daemon = try DaemonProcess(
            directory: layout.directory, fonts: [BuildProducts.fixtureFonts + "/collection"],
            extraArguments: ["--allow-root", layout.allowed, "--watch", "no"])
        let snapshot = daemon.socketPath + ".snapshot"
        let root = try daemon.client()
        _ = try root.call("io.fontreg.Registry.Register", ["paths": [.string(open)]])
        try waitFor("the snapshot with the font") {
            (try? Data(contentsOf: URL(fileURLWithPath: snapshot)))?.range(of: Data("Lato-Regular".utf8)) != nil
        }
        // Only the mode changes: no face is added or removed by the Rescan (issue 24 reported the
        // snapshot staying published then, with a face only root may read).
        chmod(font, 0o600)
        let rescanned = try root.call("io.fontreg.Registry.Rescan")
        #expect(rescanned["added"] == [] && rescanned["removed"] == [], "\(rescanned)")
        try waitFor("the snapshot withdrawn") { !FileManager.default.fileExists(atPath: snapshot) }
        chmod(font, 0o644)
        _ = try root.call("io.fontreg.Registry.Rescan")
        try waitFor("the snapshot published again") { FileManager.default.fileExists(atPath: snapshot) }
        #expect(try daemon.stop() == 0)
    }

    @Test func aMonitorSubscriberIsNotToldOfAFaceItCouldNotRead() throws {
        let layout = try Layout()
        let daemon = try DaemonProcess(
            directory: layout.directory, fonts: [BuildProducts.fixtureFonts + "/collection"],
            extraArguments: ["--allow-root", layout.allowed, "--watch", "no"])
        let (process, events) = try layout.b.monitor(socket: daemon.socketPath)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        _ = events.nextLine(timeout: 10)  // subscribed
        _ = try daemon.client().call("io.fontreg.Registry.Register", ["paths": [.string(layout.team)]])
        let changed = try #require(events.nextLine(timeout: 10))
        #expect(changed.contains("Lato-Regular"), "\(changed)")
        #expect(!changed.contains(Self.secretName), "\(changed)")
        #expect(try daemon.stop() == 0)
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON

/// A user's registration re-checks its files' owner at every rescan (issue 15), against the real daemon.
@Suite(.serialized) struct OwnFilesRescanTests {
    @Test func aFileSwappedForRootsIsDroppedAtRescanAndOnlyItsOwnerSeesWhy() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let daemon = try DaemonProcess(fonts: DaemonUserFontsTests.publicFonts, extraArguments: ["--watch", "no"])
        let directory = try a.makeFontDirectory(copying: DaemonUserFontsTests.noto)
        defer { a.removeFontDirectory(directory) }
        #expect(try a.fontresolve(["register", directory], socket: daemon.socketPath).status == 0)
        let bold = ["family": JSONValue.string("Noto Fixture"), "weight": "700", "strict": true]
        let before = try DaemonUserFontsTests.call(a, daemon, "Resolve", bold)
        #expect(before["parameters"]?["postscriptName"] == "NotoFixture-Bold")

        // Someone else's file (root's) takes the place of the user's.
        let file = directory + "/NotoFixture-Bold.ttf", swapped = directory + "/.swap"
        try FileManager.default.copyItem(atPath: file, toPath: swapped)
        #expect(chown(swapped, 0, 0) == 0)
        #expect(rename(swapped, file) == 0)
        #expect(try DaemonUserFontsTests.callAsRoot(daemon, "Rescan")["error"] == nil)

        let after = try DaemonUserFontsTests.call(a, daemon, "Resolve", bold)
        #expect(after["parameters"]?["postscriptName"] == "NotoFixture-Regular")
        let problems = try DaemonUserFontsTests.call(a, daemon, "GetStatus")["parameters"]?["problems"]?.arrayValue
        #expect(
            problems?.contains {
                $0["path"]?.stringValue == file && $0["reason"]?.stringValue?.contains("not owned") == true
            } == true)
        let others = try DaemonUserFontsTests.call(b, daemon, "GetStatus")
        #expect(!String(decoding: others.serialized(), as: UTF8.self).contains(directory))
    }
}

import FontRegJSON
import FontRegTestSupport
import Foundation
import Testing
import Varlink

/// A registered single font file (not a folder) is watched: a change no longer rescans every
/// root, so without a watch its change waited for an explicit `Rescan` (issue 24).
@Suite struct SingleFileWatchTests {
    @Test(.timeLimit(.minutes(1)))
    func aRegisteredSingleFileReplacedOnDiskIsRescannedByTheWatcherAndItsSiblingsStayOut() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        let single = allowed + "/single.ttf"
        try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Lato/Lato-Regular.ttf", toPath: single)
        let daemon = try DaemonProcess(
            directory: directory, fonts: [], extraArguments: ["--allow-root", allowed, "--debounce-ms", "50"])
        let client = try daemon.client(timeout: 20)
        let registered = try client.call("io.fontreg.Registry.Register", ["paths": [.string(single)]])
        #expect(registered["added"]?.arrayValue?.count == 1)
        let monitor = try daemon.client(timeout: 10)
        try monitor.send(VarlinkCall(method: "io.fontreg.Registry.Monitor", more: true))
        #expect(try monitor.receive().parameters["event"] == "subscribed")
        // A sibling in the same folder is not registered: its events do not rescan, and a rescan
        // of the file's root does not bring it in.
        try FileManager.default.copyItem(
            atPath: BuildProducts.realFonts + "/Lato/Lato-Italic.ttf", toPath: allowed + "/sibling.ttf")
        // The file replaced by another font, as an editor or a package update does (a rename over it).
        let replacement = try Data(contentsOf: URL(fileURLWithPath: BuildProducts.realFonts + "/Lato/Lato-Bold.ttf"))
        try replacement.write(to: URL(fileURLWithPath: single), options: .atomic)
        // Bounded by the monitor's 10 s timeout: without a watch on the file no event comes.
        let event = try monitor.receive()
        #expect(event.parameters["event"] == "changed")
        let added = event.parameters["added"]?.arrayValue?.compactMap { $0["postscriptName"]?.stringValue } ?? []
        let removed = event.parameters["removed"]?.arrayValue?.compactMap { $0["postscriptName"]?.stringValue } ?? []
        #expect(added == ["Lato-Bold"])
        #expect(removed == ["Lato-Regular"])
        let sibling = remoteError {
            _ = try client.call("io.fontreg.Registry.GetFace", ["postscriptName": "Lato-Italic"])
        }
        #expect(sibling?.name == "io.fontreg.Registry.FaceNotFound")
        #expect(try daemon.stop() == 0)
    }
}

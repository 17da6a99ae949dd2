import FontRegCore
import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegJSON
@testable import Varlink

/// `ResolveText`'s registry-wide coverage index is read in place from the daemon's mapped index
/// file (issue 29 item 2), not built in memory after each start; a damaged section makes the
/// daemon rebuild the file, and it keeps serving.
@Suite("fontregd reads the coverage index from its index file", .serialized)
struct DaemonTextCoverageTests {
    static let registry = "io.fontreg.Registry"
    static let inPlace = "text coverage: read in place from the index file"

    /// Two real font files (Lato) and a fixture with another design in a font directory.
    static func fonts(in directory: TemporaryDirectory) throws -> String {
        try directory.fontDirectory(copying: [
            BuildProducts.realFonts + "/Lato/Lato-Regular.ttf", BuildProducts.realFonts + "/Lato/Lato-Bold.ttf",
            BuildProducts.fixtureFonts + "/families/NotoFixture-Regular.ttf",
        ])
    }

    /// Waits (at most 20 s) for the daemon's log to hold `line`; the coverage is prepared after READY.
    static func waitForLog(_ daemon: DaemonProcess, _ line: String) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if daemon.log.contains(line) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return daemon.log.contains(line)
    }

    /// A `ResolveText` of Latin text with Lato first: one run of Lato-Regular.
    static func resolveText(_ daemon: DaemonProcess) throws {
        let reply = try daemon.client().call(
            "\(registry).ResolveText", ["text": "Hello", "families": ["Lato"]])
        #expect("\(reply)".contains("Lato-Regular"), "\(reply)")
    }

    @Test func aColdAndAWarmStartAnswerResolveTextWithTheCoverageIndexOfTheirIndexFile() throws {
        let directory = TemporaryDirectory()
        let fonts = try Self.fonts(in: directory)
        for start in ["cold", "warm"] {
            let daemon = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
            try Self.resolveText(daemon)
            #expect(daemon.log.contains("\(start) start"), "\(daemon.log)")
            #expect(Self.waitForLog(daemon, Self.inPlace), "\(start) start: \(daemon.log)")
            #expect(!daemon.log.contains("text coverage: built in memory"), "\(daemon.log)")
            #expect(try daemon.stop() == 0)
        }
    }

    @Test func aDamagedCoverageSectionIsRefusedTheFileRebuiltAndTheDaemonKeepsServing() throws {
        let directory = TemporaryDirectory()
        let fonts = try Self.fonts(in: directory)
        let indexFile = directory.file("cache") + "/" + FontRegistry.indexFileName
        let first = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
        try Self.resolveText(first)
        #expect(try first.stop() == 0)
        // The section's family count made wrong, the checksum recomputed (a forger's file).
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: indexFile)))
        let field = 208
        let offset = Int(bytes[field + 4]) | Int(bytes[field + 5]) << 8 | Int(bytes[field + 6]) << 16
        #expect(offset > 0)
        bytes[offset] ^= 0x40
        SnapshotWriter.reseal(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: indexFile))
        #expect(throws: SnapshotError.self) { try MappedSnapshot(path: indexFile) }

        let second = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
        try Self.resolveText(second)
        #expect(second.log.contains("cold start") && second.log.contains("text coverage"), "\(second.log)")
        #expect(Self.waitForLog(second, Self.inPlace), "\(second.log)")
        #expect(try second.stop() == 0)
        let rebuilt = try MappedSnapshot(path: indexFile)
        #expect(rebuilt.textCoverage != nil)
    }
}

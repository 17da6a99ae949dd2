import FontRegCore
import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegJSON
@testable import Varlink

/// After a cold start the daemon serves the index file it has just written, mapped, and drops
/// the index it built (issue 29 item 2: a cold start ends as small as a warm one). Seen from
/// outside: the real daemon's `/proc/PID/maps` holds its cache directory's `index.snapshot`.
@Suite("fontregd serves its index file mapped after a cold start", .serialized)
struct DaemonColdStartMappingTests {
    static let registry = "io.fontreg.Registry"

    /// `/proc/PID/maps`, read to its end (`String(contentsOfFile:)` stops after the first read of
    /// a file whose size reads as 0, as /proc's do).
    static func maps(of pid: Int32) -> [String] {
        let data = FileHandle(forReadingAtPath: "/proc/\(pid)/maps").flatMap { try? $0.readToEnd() } ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The mappings of `pid`'s address space whose file is `path`.
    static func mappings(of pid: Int32, file path: String) -> [String] {
        maps(of: pid).filter { $0.hasSuffix(" " + path) }
    }

    @Test func aColdStartMapsTheIndexFileItWroteAndAWarmStartMapsTheSameFile() throws {
        let directory = TemporaryDirectory()
        let fonts = try directory.fontDirectory(
            copying: [
                BuildProducts.fixtureFonts + "/families/NotoFixture-Regular.ttf",
                BuildProducts.fixtureFonts + "/families/NotoFixture-Bold.ttf",
            ])
        let indexFile = directory.file("cache") + "/" + FontRegistry.indexFileName
        #expect(!FileManager.default.fileExists(atPath: indexFile))
        for start in ["cold", "warm"] {
            let daemon = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
            let resolved = try daemon.client().call(
                "\(Self.registry).Resolve", ["family": "Noto Fixture", "weight": 700])
            #expect(resolved["face"]?["file"]?.stringValue == fonts + "/NotoFixture-Bold.ttf", "\(resolved)")
            #expect(daemon.log.contains(start == "cold" ? "cold start" : "warm start"), "\(daemon.log)")
            let mapped = Self.mappings(of: daemon.process.processIdentifier, file: indexFile)
            #expect(!mapped.isEmpty, "\(start) start: \(indexFile) is not mapped; the daemon serves a built index")
            #expect(try daemon.stop() == 0)
        }
    }

    @Test func whenTheIndexFileCannotBeWrittenTheBuiltIndexIsServedAndNothingIsMapped() throws {
        // The control of the test above: the same check sees no mapping when there is no file to map.
        let directory = TemporaryDirectory()
        let fonts = try directory.fontDirectory(copying: [
            BuildProducts.fixtureFonts + "/families/NotoFixture-Regular.ttf"
        ])
        let blocker = directory.file("not-a-directory")
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("a file, not a directory\n".utf8))
        let cache = blocker + "/cache"
        let daemon = try DaemonProcess(
            directory: directory, fonts: [fonts], extraArguments: ["--watch", "no", "--cache-dir", cache])
        let resolved = try daemon.client().call("\(Self.registry).Resolve", ["family": "Noto Fixture", "weight": 400])
        #expect(resolved["face"]?["file"]?.stringValue == fonts + "/NotoFixture-Regular.ttf", "\(resolved)")
        let pid = daemon.process.processIdentifier
        #expect(Self.mappings(of: pid, file: cache + "/" + FontRegistry.indexFileName).isEmpty)
        #expect(try daemon.stop() == 0)
    }
}

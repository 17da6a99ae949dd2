import FontRegTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@testable import FontRegJSON
@testable import Varlink

/// What `Tests/FontRegServerTests/Daemon` did not yet cover of issue 7's access list: a file swapped
/// between the check and the open, and symlinks inside a registered directory.
@Suite("fontregd under path races and escapes", .serialized)
struct DaemonAccessRaceTests {
    static let register = "io.fontreg.Registry.Register"
    static let unregister = "io.fontreg.Registry.Unregister"

    @Test func aFontSwappedForAFIFOWhileRegisterRunsIsNeverOpenedAndEveryCallIsAnswered() throws {
        let directory = TemporaryDirectory()
        let brand = directory.file("allowed/brand")
        try FileManager.default.createDirectory(atPath: brand, withIntermediateDirectories: true)
        let font = BuildProducts.fixtureFonts + "/families/FixtureSans-Bold.otf"
        let target = brand + "/Swap.otf"
        try FileManager.default.copyItem(atPath: font, toPath: target)
        let daemon = try DaemonProcess(
            directory: directory, extraArguments: ["--allow-root", directory.file("allowed"), "--watch", "no"])
        let client = try daemon.client(timeout: 30)
        // A thread swaps the file for a FIFO and back with rename(2), as fast as it can, while the
        // daemon checks and reads the directory: opening the FIFO would block the worker for ever.
        let control = SwapControl()
        let base = directory.path
        let swapper = Thread {
            var round = 0
            while !control.stop.load(ordering: .relaxed) {
                round += 1
                let fifo = base + "/fifo-\(round)", copy = base + "/copy-\(round).otf"
                _ = mkfifo(fifo, 0o644)
                _ = rename(fifo, target)
                _ = try? FileManager.default.copyItem(atPath: font, toPath: copy)
                _ = rename(copy, target)
                control.swaps.add(1, ordering: .relaxed)
            }
        }
        swapper.start()
        defer { control.stop.store(true, ordering: .relaxed) }
        var served = 0, refused = 0
        for _ in 0..<40 {
            let added = try client.call(Self.register, ["paths": [.string(brand)]])
            let files = (added["added"]?.arrayValue ?? []).compactMap { $0["file"]?.stringValue }
            let problems = (added["problems"]?.arrayValue ?? []).compactMap { $0["reason"]?.stringValue }
            if files.contains(target) {
                served += 1
            } else {
                refused += 1
                #expect(problems.contains { $0.contains("FIFO") || $0.contains("no such file") }, "\(problems)")
            }
            _ = try client.call(Self.unregister, ["paths": [.string(brand)]])
        }
        control.stop.store(true, ordering: .relaxed)
        #expect(served + refused == 40)
        #expect(control.swaps.load(ordering: .relaxed) > 0)
        #expect(
            try client.call("io.fontreg.Registry.Resolve", ["family": "Fixture Sans"])["postscriptName"]
                == "FixtureSans-Regular")
        #expect(try daemon.stop() == 0)
    }

    @Test func aFIFOAndADeviceInsideARegisteredDirectoryAreReportedAndTheRestIsServed() throws {
        let directory = TemporaryDirectory()
        let brand = directory.file("allowed/brand")
        try FileManager.default.createDirectory(atPath: brand, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: BuildProducts.fixtureFonts + "/families/FixtureSans-Bold.otf", toPath: brand + "/Good.otf")
        #expect(mkfifo(brand + "/pipe.ttf", 0o644) == 0)
        #expect(mknod(brand + "/zero.ttf", S_IFCHR | 0o600, dev_t((1 << 8) | 5)) == 0)
        let daemon = try DaemonProcess(
            directory: directory, extraArguments: ["--allow-root", directory.file("allowed")])
        let reply = try daemon.client().call(Self.register, ["paths": [.string(brand)]])
        let files = (reply["added"]?.arrayValue ?? []).compactMap { $0["file"]?.stringValue }
        #expect(files == [brand + "/Good.otf"])
        let problems = Dictionary(
            uniqueKeysWithValues: (reply["problems"]?.arrayValue ?? []).compactMap { problem in
                problem["path"]?.stringValue.map { ($0, problem["reason"]?.stringValue ?? "") }
            })
        #expect(problems[brand + "/pipe.ttf"]?.contains("FIFO") == true)
        #expect(problems[brand + "/zero.ttf"]?.contains("device") == true)
    }

    @Test func aSymlinkInsideARegisteredDirectoryLeadingOutsideTheAllowedRootsIsNotRead() throws {
        let directory = TemporaryDirectory()
        let brand = directory.file("allowed/brand")
        let outside = directory.file("outside")
        try FileManager.default.createDirectory(atPath: brand, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: BuildProducts.fixtureFonts + "/families/NotoFixture-Regular.ttf", toPath: brand + "/Good.ttf")
        try FileManager.default.copyItem(
            atPath: BuildProducts.fixtureFonts + "/families/AvenirFixture-Bold.ttf", toPath: outside + "/Secret.ttf")
        let daemon = try DaemonProcess(
            directory: directory, fonts: [BuildProducts.fixtureFonts + "/collection"],
            extraArguments: ["--allow-root", directory.file("allowed"), "--watch", "no"])
        // A directory that already holds an escaping link is refused by Register itself.
        try FileManager.default.createSymbolicLink(
            atPath: brand + "/Escape.ttf", withDestinationPath: outside + "/Secret.ttf")
        #expect(throws: (any Error).self) { try daemon.client().call(Self.register, ["paths": [.string(brand)]]) }
        // A link added after a clean registration is not followed by the rescans that come later.
        try FileManager.default.removeItem(atPath: brand + "/Escape.ttf")
        let reply = try daemon.client().call(Self.register, ["paths": [.string(brand)]])
        #expect((reply["added"]?.arrayValue ?? []).count == 1)
        try FileManager.default.createSymbolicLink(
            atPath: brand + "/Escape.ttf", withDestinationPath: outside + "/Secret.ttf")
        _ = try daemon.client().call("io.fontreg.Registry.Rescan")
        let face = try daemon.client().call("io.fontreg.Registry.GetStatus")
        let problems = (face["problems"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue }
        #expect(problems.contains(brand + "/Escape.ttf"))
        #expect(throws: (any Error).self) {
            try daemon.client().call("io.fontreg.Registry.GetFace", ["postscriptName": "AvenirFixture-Bold"])
        }
    }
}

/// Shared between a test and its swapping thread.
final class SwapControl: Sendable {
    let stop = Atomic<Bool>(false)
    let swaps = Atomic<Int>(0)
}

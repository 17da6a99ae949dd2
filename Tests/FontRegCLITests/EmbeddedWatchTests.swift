import FontRegTestSupport
import Foundation
import Glibc
import Testing

/// `fontresolve watch --fonts DIR`: without a daemon, changes are found by rescanning.
@Suite struct EmbeddedWatchTests {
    @Test func watchWithFontsReportsAFontCopiedIntoTheDirectory() throws {
        let directory = TemporaryDirectory()
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: BuildProducts.executable("fontresolve"))
        watcher.arguments = ["watch", "--fonts", directory.path, "--interval", "0.2"]
        let out = Pipe()
        watcher.standardOutput = out
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        let reader = LineReader(out.fileHandleForReading)
        #expect(reader.nextLine(timeout: 10) == "watching: generation 1, 0 faces")
        try FileManager.default.copyItem(
            atPath: BuildProducts.fixtureFonts + "/families/NotoFixture-Bold.ttf",
            toPath: directory.file("NotoFixture-Bold.ttf"))
        #expect(reader.nextLine(timeout: 10) == "generation 2: +1 -0, 1 face")
        #expect(reader.nextLine(timeout: 5)?.hasPrefix("  + NotoFixture-Bold  ") == true)
        kill(watcher.processIdentifier, SIGTERM)
        watcher.waitUntilExit()
        #expect(watcher.terminationReason == .uncaughtSignal)
    }
}

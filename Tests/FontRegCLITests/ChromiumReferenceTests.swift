import FontRegTestSupport
import Foundation
import Testing

/// fontreg's per-cluster fallback against what headless Chromium draws (scripts/chromium-reference.py).
@Suite("Fallback against Chromium as the reference (issue 26)")
struct ChromiumReferenceTests {
    static let chromium = "/usr/bin/chromium"

    @Test(
        "Every cluster of the reference strings gets Chromium's family, or a difference docs/fallback.md explains",
        .enabled(if: FileManager.default.isExecutableFile(atPath: chromium)),
        .timeLimit(.minutes(5)))
    func fallbackAgreesWithChromium() throws {
        let output = NSTemporaryDirectory() + "chromium-reference-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["scripts/chromium-reference.py"]
        process.currentDirectoryURL = BuildProducts.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["FONTRESOLVE"] = BuildProducts.executable("fontresolve")
        environment["CHROMIUM"] = Self.chromium
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("agreement: "))
    }
}

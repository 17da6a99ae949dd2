import FontRegTestSupport
import Foundation
import Testing

/// Face matching, synthesis and variation values on generated `@font-face` families against what
/// headless Chromium draws (scripts/chromium-fontface.py, its bounded default sweep).
@Suite("Generated @font-face families against Chromium as the reference (issue 26)")
struct ChromiumFontFaceTests {
    static let chromium = "/usr/bin/chromium"

    @Test(
        "Every query's face, synthesis and variation values are Chromium's, or a difference docs/matching.md explains",
        .enabled(if: FileManager.default.isExecutableFile(atPath: chromium)),
        .timeLimit(.minutes(3)))
    func fontFaceMatchingAgreesWithChromium() throws {
        let output = NSTemporaryDirectory() + "chromium-fontface-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PythonTools.python)
        process.arguments = ["scripts/chromium-fontface.py"]
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
        #expect(printed.contains("faces: ") && printed.contains("synthesis: ") && printed.contains("variations: "))
    }
}

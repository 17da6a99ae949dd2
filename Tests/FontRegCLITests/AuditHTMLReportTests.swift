import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCLI
@testable import FontRegCore

/// The HTML report, opened in headless Chromium (Debian's `chromium`).
@Suite(.serialized) struct AuditHTMLReportTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs Chromium headless and returns its standard output.
    static func runChromium(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium!)
        process.arguments =
            ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files"]
            + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A browser that hangs must not hang the test run: stop it after a minute.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return String(decoding: data, as: UTF8.self)
    }

    static func writeReport(to directory: URL) throws -> (URL, AuditReport) {
        let path = directory.appendingPathComponent("report.html")
        let result = AuditCommand.run(
            arguments: [AuditFixtures.tokens("dtcg/design-system.tokens.json"), "--report", path.path],
            faces: AuditFixtures.fixtureIndex)
        #expect(result.stderr.contains("wrote the HTML report"))
        return (path, try #require(result.report))
    }

    @Test func reportIsSelfContained() throws {
        let (path, _) = try Self.writeReport(to: AuditFixtures.temporaryDirectory())
        let html = try String(contentsOf: path, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("src=\""))
        #expect(!html.contains("href=\""))
        #expect(!html.contains("@font-face"))
        #expect(!html.contains("<script"))
    }

    @Test func gridMarksEachCellWithItsStatus() throws {
        let (path, _) = try Self.writeReport(to: AuditFixtures.temporaryDirectory())
        let html = try String(contentsOf: path, encoding: .utf8)
        func status(_ family: String, _ style: String, _ weight: Int) -> String? {
            guard let section = html.range(of: "data-family=\"\(family)\"") else { return nil }
            let rest = html[section.upperBound...]
            let end = rest.range(of: "</section>")?.lowerBound ?? rest.endIndex
            let marker = "data-weight=\"\(weight)\" data-style=\"\(style)\" data-status=\""
            guard let cell = rest[..<end].range(of: marker) else { return nil }
            return String(rest[cell.upperBound...].prefix { $0 != "\"" })
        }
        #expect(status("Noto Fixture", "italic", 400) == "used")
        #expect(status("Noto Fixture", "italic", 500) == "missing")
        #expect(status("Noto Fixture", "normal", 700) == "unneeded")
        #expect(status("Fixture Sans", "normal", 800) == "bold-text")
        #expect(status("Fixture Sans", "normal", 700) == "used bold-text")
        #expect(status("Fixture Sans", "normal", 100) == "unneeded")
        #expect(status("Fixture Var", "normal", 653) == "used")
        #expect(status("Fixture Var", "normal", 300) == "available")
        #expect(status("Noto Fixture", "normal", 300) == "absent")
        // Off-grid weights in use are drawn by the face that serves them.
        #expect(status("Fixture Sans", "normal", 450) == "used")
        #expect(status("Fixture Sans", "normal", 950) == "used")
        #expect(html.contains("no face of exactly 450: drawn by the 500 face FixtureSans-Medium"))
    }

    @Test(
        .enabled(
            if: chromium != nil, "chromium is not installed (apt-get install chromium); the browser test is skipped"))
    func chromiumRendersEveryDrawnCellWithRealGeometry() throws {
        let directory = AuditFixtures.temporaryDirectory()
        let (path, report) = try Self.writeReport(to: directory)
        // A copy with a probe script that measures every glyph path the browser laid out.
        var html = try String(contentsOf: path, encoding: .utf8)
        let probe = """
            <script>
            for (const cell of document.querySelectorAll('td.cell')) {
              const path = cell.querySelector('svg path');
              const box = path ? path.getBBox() : {width: 0, height: 0};
              cell.setAttribute('data-drawn', Math.round(box.width) + 'x' + Math.round(box.height));
            }
            document.body.setAttribute('data-grids', document.querySelectorAll('table.grid').length);
            </script>
            """
        html = html.replacingOccurrences(of: "</body>", with: probe + "</body>")
        let probed = directory.appendingPathComponent("probed.html")
        try Data(html.utf8).write(to: probed)
        let dom = try Self.runChromium(["--dump-dom", probed.absoluteString])

        #expect(dom.contains("data-grids=\"\(report.families.count)\""))
        let drawn = dom.components(separatedBy: "data-drawn=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        let cellCount = report.families.reduce(0) { total, family in
            let rows = Set(FontWeight.steps.map(\.value)).union(family.styles.flatMap { $0.required + $0.used }).count
            return total + rows * family.styles.count
        }
        #expect(drawn.count == cellCount)
        let painted = drawn.filter { !$0.hasPrefix("0x") }
        // Every cell with a face (shipped, stand-in, unneeded or available) was laid out with real size.
        let expectedPainted = try String(contentsOf: path, encoding: .utf8).components(separatedBy: "<svg").count - 1
        #expect(painted.count == expectedPainted)
        #expect(painted.count > 30)
        for size in painted {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            #expect(parts.count == 2 && parts[0] > 100 && parts[1] > 10, "cell drawn \(size)")
        }
    }

    @Test(
        .enabled(
            if: chromium != nil, "chromium is not installed (apt-get install chromium); the screenshot test is skipped")
    )
    func chromiumTakesAScreenshotOfTheReport() throws {
        let directory = AuditFixtures.temporaryDirectory()
        let (path, _) = try Self.writeReport(to: directory)
        let png =
            ProcessInfo.processInfo.environment["AUDIT_SCREENSHOT"].map { URL(fileURLWithPath: $0) }
            ?? directory.appendingPathComponent("report.png")
        _ = try Self.runChromium(["--window-size=1400,2400", "--screenshot=\(png.path)", path.absoluteString])
        let data = try Data(contentsOf: png)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // A blank page compresses to a few kilobytes; drawn glyphs do not.
        #expect(data.count > 50_000)
    }
}

import FontRegTestSupport
import Foundation
import Testing

/// The emitted CSS in headless Chromium puts every style's baseline where Figma does (scripts/chromium-baseline.py).
@Suite("Baselines of the emitted CSS in Chromium (issue 27)")
struct ChromiumBaselineTests {
    static let variableFont = "/usr/share/fonts/truetype/inter-vf/InterDisplay-roman.var.ttf"
    static let available = ChromiumScript.available && FileManager.default.fileExists(atPath: variableFont)

    /// Runs the script with `arguments`: its exit status and what it printed.
    static func run(_ arguments: [String]) throws -> (status: Int32, printed: String) {
        try ChromiumScript.run("scripts/chromium-baseline.py", arguments)
    }

    @Test(
        "Lato, Inter and a variable Inter Display at several sizes and line heights: each baseline within 0.5 px of Figma's or on Chromium's pixel grid",
        .enabled(if: available), .timeLimit(.minutes(3)))
    func emittedCSSPutsTheBaselineWhereFigmaDoes() throws {
        let run = try Self.run([])
        #expect(run.status == 0, "\(run.printed)")
        #expect(run.printed.contains("baselines: 12/12 where Figma puts them"), "\(run.printed)")
    }

    @Test(
        "Without the overrides Chromium on Linux takes Lato's typo metrics and the check fails",
        .enabled(if: available), .timeLimit(.minutes(3)))
    func withoutTheOverridesLatosBaselinesMiss() throws {
        let run = try Self.run(["--without-overrides"])
        #expect(run.status == 1, "\(run.printed)")
        let lato = run.printed.split(separator: "\n").filter { $0.hasPrefix("Lato ") }
        #expect(lato.count == 5 && lato.allSatisfy { $0.hasSuffix("FAIL") }, "\(run.printed)")
    }
}

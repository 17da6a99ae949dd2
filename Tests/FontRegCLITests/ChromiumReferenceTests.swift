import FontRegTestSupport
import Foundation
import Testing

/// fontreg's per-cluster fallback against what headless Chromium draws (scripts/chromium-reference.py).
@Suite("Fallback against Chromium as the reference (issue 26)")
struct ChromiumReferenceTests {
    @Test(
        "Every cluster of the reference strings gets Chromium's family, or a difference docs/fallback.md explains",
        .enabled(if: ChromiumScript.available),
        .timeLimit(.minutes(5)))
    func fallbackAgreesWithChromium() throws {
        let run = try ChromiumScript.run("scripts/chromium-reference.py")
        #expect(run.status == 0, "\(run.printed)")
        #expect(run.printed.contains("agreement: "))
    }
}

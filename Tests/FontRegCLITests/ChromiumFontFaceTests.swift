import FontRegTestSupport
import Testing

/// Face matching, synthesis and variation values on generated `@font-face` families against what
/// headless Chromium draws (scripts/chromium-fontface.py, its bounded default sweep).
@Suite("Generated @font-face families against Chromium as the reference (issue 26)")
struct ChromiumFontFaceTests {
    @Test(
        "Every query's face, synthesis and variation values are Chromium's, or a difference docs/matching.md explains",
        .enabled(if: ChromiumScript.available),
        .timeLimit(.minutes(3)))
    func fontFaceMatchingAgreesWithChromium() throws {
        // The families are generated with fontTools: the project's Python.
        let run = try ChromiumScript.run("scripts/chromium-fontface.py", python: PythonTools.python)
        #expect(run.status == 0, "\(run.printed)")
        #expect(
            run.printed.contains("faces: ") && run.printed.contains("synthesis: ")
                && run.printed.contains("variations: "))
    }
}

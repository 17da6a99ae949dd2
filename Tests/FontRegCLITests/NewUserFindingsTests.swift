import FontRegTestSupport
import Foundation
import Testing

/// What a new user tripped over (issue 30), through the built `fontresolve`.
@Suite struct NewUserFindingsTests {
    @Test func explainTellsADuplicateOnceWhenABundledFontIsAlsoInstalledFromDebian() throws {
        let debian = "/usr/share/fonts/truetype/lato"
        try #require(FileManager.default.fileExists(atPath: debian + "/Lato-Bold.ttf"), "fonts-lato is installed")
        let output = try FontResolveProcess.run(
            ["explain", "Lato", "--weight", "700", "--fonts", Fixtures.bundled, "--fonts", debian])
        #expect(output.status == 0, "\(output.stderr)")
        let duplicates = output.stdout.split(separator: "\n").filter { $0.contains("Duplicate: Lato-Bold") }
        #expect(duplicates.count == 1, "\(output.stdout)")
    }
}

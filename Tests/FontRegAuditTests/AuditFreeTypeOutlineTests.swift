import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore

@Suite struct AuditFreeTypeOutlineTests {
    static func fixture(_ name: String) -> String {
        AuditFixtures.testsRoot.appendingPathComponent("Fixtures/fonts/\(name)").path
    }

    @Test func outlinesBecomeSVGPathDataAboveTheBaseline() throws {
        let text = try FreeTypeOutline.outline(
            text: "H", file: Self.fixture("families/FixtureSans-Regular.otf"), faceIndex: 0, pixelSize: 100)
        #expect(text.pathData.hasPrefix("M"))
        #expect(text.pathData.hasSuffix("Z"))
        #expect(text.missingGlyphs == 0)
        // Cap height 700 units of 1000 (strokes centred on it): at 100 px the top of "H" is
        // about 70 px above the baseline, and y grows downwards, so it is near y = -70.
        let numbers = text.pathData.split(whereSeparator: { "MLQCZ ".contains($0) }).compactMap { Double($0) }
        let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
        let top = try #require(ys.min())
        #expect((-80.0)...(-65.0) ~= top)
        #expect((ys.max() ?? 99) < 5)
        #expect(text.width > 30)
        #expect(text.ascent > 60)
    }

    @Test func heavierFacesDrawWiderText() throws {
        let sample = AuditHTMLRenderer.sample
        let thin = try FreeTypeOutline.outline(
            text: sample, file: Self.fixture("families/FixtureSans-Thin.otf"), faceIndex: 0)
        let black = try FreeTypeOutline.outline(
            text: sample, file: Self.fixture("families/FixtureSans-Black.otf"), faceIndex: 0)
        #expect(black.width > thin.width)
        #expect(black.pathData != thin.pathData)
    }

    @Test func variableFaceIsDrawnAtTheRequestedWeight() throws {
        let file = Self.fixture("variable/FixtureVar[wght].ttf")
        let light = try FreeTypeOutline.outline(text: "Hm", file: file, faceIndex: 0, weight: 300)
        let heavy = try FreeTypeOutline.outline(text: "Hm", file: file, faceIndex: 0, weight: 653)
        let defaultWeight = try FreeTypeOutline.outline(text: "Hm", file: file, faceIndex: 0)
        #expect(light.pathData != heavy.pathData)
        #expect(heavy.width > light.width)
        #expect(defaultWeight.pathData != heavy.pathData)
    }

    @Test func charactersWithoutGlyphsAreCounted() throws {
        let text = try FreeTypeOutline.outline(
            text: "Aé€", file: Self.fixture("families/FixtureSans-Regular.otf"), faceIndex: 0)
        #expect(text.missingGlyphs == 2)
    }

    @Test func unreadableFileThrowsNamingIt() {
        let file = Self.fixture("bad/garbage.otf")
        do {
            _ = try FreeTypeOutline.outline(text: "A", file: file, faceIndex: 0)
            Issue.record("garbage was outlined")
        } catch {
            #expect(error.description.hasPrefix(file))
        }
    }

    @Test func realCFFAndTrueTypeFontsAreOutlined() throws {
        let inter = try FreeTypeOutline.outline(
            text: "Ag", file: AuditFixtures.repositoryRoot.appendingPathComponent("fonts/Inter/Inter-Bold.otf").path,
            faceIndex: 0)
        let lato = try FreeTypeOutline.outline(
            text: "Ag", file: AuditFixtures.repositoryRoot.appendingPathComponent("fonts/Lato/Lato-Italic.ttf").path,
            faceIndex: 0)
        #expect(inter.pathData.contains("C"))  // CFF: cubic curves
        #expect(lato.pathData.contains("Q"))  // TrueType: quadratic curves
    }
}

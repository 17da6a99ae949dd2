import FontRegCore
import FontRegTestSupport
import Foundation
import Testing

/// `fontresolve layout` (issue 27) in embedded mode over Debian's Lato and Roboto
/// (scripts/setup-deps.sh --test).
@Suite struct LayoutCommandTests {
    static let lato = ["--fonts", "/usr/share/fonts/truetype/lato"]
    static let roboto = ["--fonts", "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF"]

    @Test func layoutJSONCarriesTheFaceMetricsAndEveryPlatform() throws {
        let output = try FontResolveProcess.run(
            ["layout", "Lato", "--size", "16", "--line-height", "24px", "--json"] + Self.lato)
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "face", "metrics", "size", "lineHeight", "figma", "css", "ios", "android", "flutter", "compose",
            ])
        #expect((object["face"] as? [String: Any])?["postscriptName"] as? String == "Lato-Regular")
        let metrics = try #require(object["metrics"] as? [String: Any])
        #expect((metrics["hhea"] as? [String: Any])?["descender"] as? Int == -426)
        #expect(metrics["useTypoMetrics"] as? Bool == true)
        let figma = try #require(object["figma"] as? [String: Any])
        #expect(abs((figma["baseline"] as? Double ?? 0) - 18.192) < 1e-9)
        let css = try #require(object["css"] as? [String: Any])
        #expect(css["ascentOverride"] as? Double == 98.7 && css["descentOverride"] as? Double == 21.3)
        #expect((object["android"] as? [String: Any])?["includeFontPadding"] as? Bool == false)
        #expect((object["flutter"] as? [String: Any])?["leadingDistribution"] as? String == "even")
        #expect((object["compose"] as? [String: Any])?["alignment"] as? String == "Center")
    }

    @Test("layout at a weight between a variable font's named instances takes the MVAR metrics there, as fontTools")
    func layoutBetweenInstancesTakesTheVariedMetrics() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let (path, expected) = try MVARFixture.build(in: directory, locations: ["wght=450", ""])
        let output = try FontResolveProcess.run(
            ["layout", "Axis Fixture", "--weight", "450", "--size", "16", "--line-height", "24px", "--json"]
                + ["--fonts", path])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let metrics = try JSONSerialization.data(withJSONObject: try #require(object["metrics"]))
        #expect(try JSONDecoder().decode(FaceMetrics.self, from: metrics) == expected[0])
        #expect(expected[0] != expected[1])
    }

    @Test func layoutPrintsATablePerPlatformAndTheFormulasWithExplain() throws {
        let output = try FontResolveProcess.run(
            ["layout", "Roboto", "--size", "16", "--line-height", "1.5", "--explain"] + Self.roboto)
        #expect(output.status == 0, "\(output.stderr)")
        for title in ["Figma", "CSS", "iOS (YMatterType)", "Android", "Flutter", "Compose"] {
            #expect(output.stdout.contains("\n\(title)\n"), "\(title)")
        }
        #expect(output.stdout.contains("  baseline          17.469\n"))
        #expect(output.stdout.contains("Figma baseline = (L − (A + D)·s)/2 + A·s"))
    }

    @Test(arguments: [
        ["--line-height", "24px"], ["--size", "16"], ["--size", "big", "--line-height", "24px"],
        ["--size", "16", "--line-height", "tall"],
    ])
    func layoutWithoutAGoodSizeOrLineHeightIsAUsageError(_ options: [String]) throws {
        let output = try FontResolveProcess.run(["layout", "Lato"] + options + Self.lato)
        #expect(output.status == 64)
    }

    @Test func layoutFromTheDaemonPrintsWhatEmbeddedModePrints() throws {
        let daemon = try DaemonProcess(fonts: ["/usr/share/fonts/truetype/lato"])
        let query = ["layout", "Lato", "--weight", "bold", "--size", "14", "--line-height", "1.4"]
        for format in [[], ["--json"]] {
            let remote = try FontResolveProcess.run(query + format + ["--socket", daemon.socketPath])
            let local = try FontResolveProcess.run(query + format + Self.lato)
            #expect(remote.status == 0, "\(remote.stderr)")
            #expect(remote.stdout == local.stdout)
        }
    }

    @Test func faceAndResolveJSONCarryMetricsUnderTheIssueNames() throws {
        for command in [["face", "Lato-Regular"], ["resolve", "Lato"]] {
            let output = try FontResolveProcess.run(command + ["--json"] + Self.lato)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            let face = command[0] == "face" ? object : try #require(object["face"] as? [String: Any])
            let metrics = try #require(face["metrics"] as? [String: Any])
            #expect(
                Set(metrics.keys) == ["unitsPerEm", "hhea", "typo", "win", "useTypoMetrics", "capHeight", "xHeight"])
            #expect(Set((metrics["hhea"] as? [String: Any] ?? [:]).keys) == ["ascender", "descender", "lineGap"])
            #expect(Set((metrics["typo"] as? [String: Any] ?? [:]).keys) == ["ascender", "descender", "lineGap"])
            #expect((metrics["win"] as? [String: Any])?["descent"] as? Int == 426)
        }
    }
}

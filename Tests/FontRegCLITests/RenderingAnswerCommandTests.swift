import FontRegTestSupport
import Foundation
import Testing

/// `fontresolve resolve` with the richer query and answer, `candidates` and `duplicates`, in
/// embedded mode on the matching fixtures.
@Suite struct RenderingAnswerCommandTests {
    static func fonts(_ names: [String]) -> [String] {
        names.flatMap { ["--fonts", Fixtures.matching + "/" + $0] }
    }

    @Test func resolveShowsTheVariationsToSetAndTheWeightDrawn() throws {
        let output = try FontResolveProcess.run(
            ["resolve", "Axis Fixture", "--weight", "650", "--optical-size", "24"] + Self.fonts(["axis"]))
        #expect(output.status == 0)
        #expect(output.stdout.contains("  weight:    650\n"))
        #expect(output.stdout.contains("  variations: wght=650 opsz=24\n"))
        #expect(!output.stdout.contains("synthesis:"))
    }

    @Test func resolveShowsWhatTheRendererMustSynthesize() throws {
        let output = try FontResolveProcess.run(
            ["resolve", "Lone Fixture", "--weight", "bold", "--italic"] + Self.fonts(["lone"]))
        #expect(output.status == 0)
        #expect(output.stdout.contains("  synthesis: bold, oblique 14deg\n"))
        #expect(output.stdout.contains("  weight:    400 (asked 700)"))
        let none = try FontResolveProcess.run(
            ["resolve", "Lone Fixture", "--weight", "bold", "--synthesis", "none"] + Self.fonts(["lone"]))
        #expect(!none.stdout.contains("synthesis:"))
    }

    @Test func resolveJSONCarriesVariationsAndSynthesisAsObjects() throws {
        let output = try FontResolveProcess.run(
            ["resolve", "Slant Fixture", "--style", "oblique 10deg", "--json"] + Self.fonts(["slant"]))
        #expect(output.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["postscriptName"] as? String == "SlantFixture-Oblique8")
        #expect((object["variations"] as? [String: Any])?.isEmpty == true)
        #expect((object["synthesis"] as? [String: Any])?["bold"] as? Bool == false)
        let width = try FontResolveProcess.run(
            ["resolve", "Stretch Fixture", "--width", "expanded", "--json"] + Self.fonts(["stretch"]))
        #expect(width.stdout.contains("\"postscriptName\": \"StretchFixture-Expanded\""))
    }

    @Test(arguments: [
        ["--style", "slanted"], ["--width", "narrow"], ["--optical-size", "big"], ["--synthesis", "bold"],
    ])
    func badRenderingOptionsAreUsageErrors(_ option: [String]) throws {
        let output = try FontResolveProcess.run(["resolve", "Lone Fixture"] + option + Self.fonts(["lone"]))
        #expect(output.status == 64)
        #expect(output.stderr.contains(option[1]))
    }

    @Test func candidatesListsTheFamilyBestFirst() throws {
        let output = try FontResolveProcess.run(
            ["candidates", "Stretch Fixture", "--weight", "bold"] + Self.fonts(["stretch"]))
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Stretch Fixture at 700, best first:")
        #expect(lines.count == 5)
        #expect(lines[1].contains("StretchFixture-SemiCondensed") && lines[1].contains("synthesis: bold"))
        #expect(lines[2].contains("StretchFixture-Condensed"))
        let json = try FontResolveProcess.run(
            ["candidates", "Axis Fixture", "--weight", "650", "--json"] + Self.fonts(["axis"]))
        #expect(json.stdout.contains("\"wght\": 650"))
        let unknown = try FontResolveProcess.run(["candidates", "Nothing"] + Self.fonts(["axis"]))
        #expect(unknown.status == 1)
    }

    @Test func duplicatesNamesTheWinnerAndWhyTheOthersLost() throws {
        let output = try FontResolveProcess.run(["duplicates"] + Self.fonts(["dup-old", "dup-new"]))
        #expect(output.status == 0)
        #expect(output.stdout.contains("DupFixture-Regular (same PostScript name)"))
        #expect(output.stdout.contains("uses:") && output.stdout.contains("dup-new/DupFixture-Regular.ttf"))
        #expect(output.stdout.contains("its fontRevision 1.000 is older than 2.000"))
        let none = try FontResolveProcess.run(["duplicates"] + Self.fonts(["lone"]))
        #expect(none.stdout.contains("No duplicates"))
        let status = try FontResolveProcess.run(["status"] + Self.fonts(["dup-old", "dup-new"]))
        #expect(status.stdout.contains("duplicates:  2 (2 faces not used"))
    }
}

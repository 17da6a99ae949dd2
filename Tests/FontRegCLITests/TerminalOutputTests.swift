import FontRegTestSupport
import Foundation
import Testing

/// Colour on a terminal only, never with `NO_COLOR`, never in a pipe.
@Suite struct TerminalOutputTests {
    let escape = "\u{1B}["
    var hasScript: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    @Test func pipedOutputHasNoColour() throws {
        let output = try FontResolveProcess.run(["list", "--fonts", FontResolveProcess.fixtures])
        #expect(!output.stdout.contains(escape))
    }

    @Test func terminalOutputIsColouredUnlessNoColorIsSet() throws {
        guard hasScript else { return }
        let coloured = try FontResolveProcess.runOnTerminal([
            "resolve", "Noto Fixture", "--weight", "bold", "--fonts", FontResolveProcess.fixtures,
        ])
        #expect(coloured.stdout.contains(escape + "1mNotoFixture-Bold"))
        let plain = try FontResolveProcess.runOnTerminal(
            ["resolve", "Noto Fixture", "--weight", "bold", "--fonts", FontResolveProcess.fixtures],
            environment: ["NO_COLOR": "1"])
        #expect(plain.stdout.contains("NotoFixture-Bold"))
        #expect(!plain.stdout.contains(escape))
    }

    @Test func jsonOnATerminalHasNoColour() throws {
        guard hasScript else { return }
        let output = try FontResolveProcess.runOnTerminal([
            "face", "NotoFixture-Bold", "--json", "--fonts", FontResolveProcess.fixtures,
        ])
        #expect(output.stdout.contains("\"postscriptName\": \"NotoFixture-Bold\""))
        #expect(!output.stdout.contains(escape))
    }
}

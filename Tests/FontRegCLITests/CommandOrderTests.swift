import Testing

@testable import FontRegCLI

@Suite struct CommandOrderTests {
    @Test func optionsBeforeTheCommandMoveAfterIt() {
        #expect(FontResolveMain.commandFirst(["--socket", "/s", "status"]) == ["status", "--socket", "/s"])
        #expect(FontResolveMain.commandFirst(["--json", "resolve", "Lato"]) == ["resolve", "--json", "Lato"])
    }

    @Test func argumentsThatStartWithTheCommandAreLeftAlone() {
        #expect(
            FontResolveMain.commandFirst(["resolve", "Lato", "--socket", "/s"]) == [
                "resolve", "Lato", "--socket", "/s",
            ])
        #expect(FontResolveMain.commandFirst(["--help"]) == ["--help"])
        #expect(FontResolveMain.commandFirst(["--socket", "/s"]) == ["--socket", "/s"])
    }
}

import FontRegTestSupport
import Testing

/// `--no-bold-text` against the real daemon while the caller's own Bold Text setting is on (issue 15).
@Suite(.serialized) struct NoBoldTextFlagTests {
    @Test func noBoldTextResolvesAsAskedWhileTheUsersSettingIsOn() throws {
        let daemon = try DaemonProcess(
            fonts: [BuildProducts.fixtureFonts + "/families"], extraArguments: ["--watch", "no"])
        let socket = ["--socket", daemon.socketPath]
        let on = try FontResolveProcess.run(["bold-text", "on"] + socket)
        #expect(on.status == 0, "\(on.stderr)")
        let query = ["sf-fixture-display", "--weight", "semibold", "--json"] + socket

        let bySetting = try #require(
            try FontResolveProcess.json(try FontResolveProcess.run(["resolve"] + query)) as? [String: Any])
        #expect(bySetting["effectiveWeight"] as? Int == 700)
        #expect(bySetting["postscriptName"] as? String == "SFFixtureDisplay-Bold")

        for command in ["resolve", "explain"] {
            let off = try FontResolveProcess.run([command] + query + ["--no-bold-text"])
            #expect(off.status == 0, "\(off.stderr)")
            let reply = try #require(try FontResolveProcess.json(off) as? [String: Any])
            #expect(reply["effectiveWeight"] as? Int == 600, "\(command)")
            #expect(reply["postscriptName"] as? String == "SFFixtureDisplay-Semibold", "\(command)")
        }

        let candidatesBySetting = try #require(
            try FontResolveProcess.json(try FontResolveProcess.run(["candidates"] + query)) as? [String: Any])
        #expect(candidatesBySetting["effectiveWeight"] as? Int == 700)
        let candidatesOff = try #require(
            try FontResolveProcess.json(try FontResolveProcess.run(["candidates"] + query + ["--no-bold-text"]))
                as? [String: Any])
        #expect(candidatesOff["effectiveWeight"] as? Int == 600)
    }

    @Test func boldTextAndNoBoldTextTogetherAreAUsageError() throws {
        let both = try FontResolveProcess.run([
            "resolve", "Lato", "--bold-text", "--no-bold-text", "--fonts", BuildProducts.fixtureFonts + "/families",
        ])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--no-bold-text"))
    }
}

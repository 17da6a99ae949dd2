import FontRegTestSupport
import Testing

/// `fontresolve audit`: the audit library wired to `--fonts` and to the daemon's faces.
@Suite(.serialized) struct ClientAuditTests {
    let tokens = "Tests/Fixtures/tokens/dtcg/design-system.tokens.json"
    let families = BuildProducts.fixtureFonts + "/families"

    @Test func auditWithFontsExitsOneWhenARequiredFaceIsMissing() throws {
        let output = try FontResolveProcess.run(["audit", tokens, "--fonts", FontResolveProcess.fixtures])
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("Font audit of \(tokens)"))
        #expect(output.stdout.contains("FixtureSans-SemiBold"))
    }

    @Test func auditJSONParsesBackAndSaysItIsIncomplete() throws {
        let output = try FontResolveProcess.run(["audit", tokens, "--json", "--fonts", FontResolveProcess.fixtures])
        let report = try #require(try FontResolveProcess.json(output) as? [String: Any])
        #expect(report["complete"] as? Bool == false)
        #expect(report["boldPolicy"] as? String == "next-heavier")
    }

    @Test func auditAgainstTheDaemonMatchesTheAuditWithTheSameFonts() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory, fonts: [families], extraArguments: ["--watch", "no"])
        let remote = try FontResolveProcess.run(["audit", tokens, "--json", "--socket", daemon.socketPath])
        let local = try FontResolveProcess.run(["audit", tokens, "--json", "--fonts", families])
        #expect(remote.status == local.status)
        #expect(remote.stdout == local.stdout)
    }

    @Test func auditOfAnUnreadableInputExitsTwo() throws {
        let output = try FontResolveProcess.run([
            "audit", "/nonexistent/tokens.json", "--fonts", FontResolveProcess.fixtures,
        ])
        #expect(output.status == 2)
        #expect(output.stderr.contains("/nonexistent/tokens.json"))
    }

    @Test func auditWithoutADaemonExits69() throws {
        let directory = TemporaryDirectory()
        let output = try FontResolveProcess.run(["audit", tokens, "--socket", directory.file("absent.sock")])
        #expect(output.status == 69)
        #expect(output.stderr.contains("run without a daemon with --fonts DIR"))
    }
}

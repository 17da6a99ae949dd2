import FontRegTestSupport
import Testing

/// Bad usage exits 64 with the usage line on standard error, and nothing on standard output.
@Suite struct UsageTests {
    @Test(arguments: [
        (["bogus"], "unknown command \"bogus\""),
        (["resolve", "--fonts", "fonts"], "needs a FAMILY"),
        (["resolve", "Lato", "--weight", "fat", "--fonts", "fonts"], "unknown weight \"fat\""),
        (["resolve", "Lato", "--bold-policy", "shout", "--fonts", "fonts"], "unknown Bold Text policy"),
        (["resolve", "Lato", "--frobnicate", "--fonts", "fonts"], "unknown option --frobnicate"),
        (["resolve", "Lato", "--weight"], "--weight needs a value"),
        (["list", "a", "b", "--fonts", "fonts"], "too many arguments"),
        (["face"], "needs a POSTSCRIPT-NAME"),
        (["register", "fonts/Lato", "--fonts", "fonts"], "unknown option --fonts"),
        (["register", "fonts/Lato", "--fonts", "fonts"], "--fonts is an option of resolve"),
        (
            ["resolve", "Lato", "--wieght", "700", "--fonts", "fonts"],
            "unknown option --wieght (did you mean --weight?)"
        ),
        (["list", "--rules", "rules"], "--rules needs --fonts"),
        (["list", "--fonts", "fonts", "--socket", "/tmp/x.sock"], "exclude each other"),
        (["rules", "explode", "X"], "unknown rules command"),
        (["watch", "--interval", "0", "--fonts", "fonts"], "--interval needs a number"),
        (["completion", "fish"], "no completion for \"fish\""),
        (["help", "nothing"], "unknown command \"nothing\""),
    ])
    func badUsageExits64WithTheUsageLine(arguments: [String], message: String) throws {
        let output = try FontResolveProcess.run(arguments)
        #expect(output.status == 64)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains(message), "stderr: \(output.stderr)")
        #expect(output.stderr.contains("usage: fontresolve"))
    }

    @Test func noArgumentsExits64AndListsTheCommands() throws {
        let output = try FontResolveProcess.run([])
        #expect(output.status == 64)
        #expect(output.stderr.contains("usage: fontresolve COMMAND"))
        #expect(output.stderr.contains("resolve, explain, list"))
    }

    @Test func usageErrorNamesTheCommandsOwnUsageLine() throws {
        let output = try FontResolveProcess.run(["resolve", "--weight", "900"])
        #expect(output.stderr.contains("usage: fontresolve resolve FAMILY [--weight W]"))
    }
}

import FontRegTestSupport
import Testing

/// What a new user meets first: the version, typos, missing values, fallbacks, odd socket paths.
@Suite("first use")
struct FirstUseTests {
    @Test func versionPrintsTheVersion() throws {
        let output = try FontResolveProcess.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("fontresolve 0."))
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let output = try FontResolveProcess.run(["resolv", "Lato"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("did you mean \"resolve\"?"), "\(output.stderr)")
    }

    @Test func anOptionWithoutItsValueSaysSoRatherThanAskingForQuotes() throws {
        let output = try FontResolveProcess.run(["resolve", "Lato", "--weight", "--fonts", "fonts"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--weight needs a value"), "\(output.stderr)")
        #expect(!output.stderr.contains("quote"))
    }

    @Test func aTypoWithoutStrictSuggestsTheFamilyAndNamesTheOption() throws {
        let output = try FontResolveProcess.run(["resolve", "Intr", "--fonts", "fonts"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Did you mean \"Inter\"?"), "\(output.stdout)")
        #expect(output.stdout.contains("--strict"))
    }

    @Test func boldTextAtTheHeaviestWeightSaysThereIsNoHeavierOne() throws {
        let output = try FontResolveProcess.run([
            "resolve", "Lato", "--weight", "black", "--bold-text", "--fonts", "fonts",
        ])
        #expect(output.status == 0)
        #expect(output.stdout.contains("no heavier weight"), "\(output.stdout)")
        #expect(output.stdout.contains("Lato-Black"))
    }

    @Test func aMissingFontsDirectoryExits66InEveryCommandTheAuditIncluded() throws {
        for command in [
            ["resolve", "Lato"], ["list"], ["status"], ["rules", "suggest", "Lato"],
            ["audit", "examples/design-tokens.json"],
        ] {
            let output = try FontResolveProcess.run(command + ["--fonts", "/nonexistent/fonts"])
            #expect(output.status == 66, "\(command): \(output.stderr)")
            #expect(
                output.stderr.contains("--fonts /nonexistent/fonts: no such file or directory"),
                "\(command): \(output.stderr)")
        }
    }

    @Test func anEmptyFontsDirectoryIsNamedInAWarningAndTheAnswerStillComes() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let output = try FontResolveProcess.run(["resolve", "Lato", "--fonts", directory])
        #expect(output.status == 0)
        #expect(output.stderr.contains("warning: --fonts \(directory) holds no font files"), "\(output.stderr)")
        let full = try FontResolveProcess.run(["resolve", "Lato", "--fonts", Fixtures.bundled])
        #expect(!full.stderr.contains("holds no font files"))
    }

    @Test func aSocketPathThatIsNotASocketIsNamedAsSuch() throws {
        let output = try FontResolveProcess.run(["status"], environment: ["FONTREG_SOCKET": "/etc/passwd"])
        #expect(output.status == 69)
        #expect(output.stderr.contains("not a socket"), "\(output.stderr)")
    }

    @Test func theAuditExampleOfTheReadmeIsCompleteOnTheBundledFonts() throws {
        let output = try FontResolveProcess.run([
            "audit", "examples/design-tokens.json", "--fonts", "fonts", "--rules", "fonts/rules",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Complete: every required face is there."))
    }
}

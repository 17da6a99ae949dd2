import FontRegCore
import FontRegTestSupport
import Testing

/// The code of the getting-started article (`Sources/FontRegCore/FontRegCore.docc/GettingStarted.md`),
/// run against the bundled fonts, so the article's sample keeps compiling and says what it does.
@Suite struct GettingStartedTests {
    @Test func resolvingInProcessFindsTheFaceTheArticleShows() throws {
        let fonts = Fixtures.bundled
        // From here to the end of the sample, the code is the article's, line for line.
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [fonts], rulesDirectory: fonts + "/rules"))
        let query = ResolveQuery(family: "Lato", weight: .semibold, boldText: true)
        let resolution = try registry.resolve(query)
        print(resolution.face.postscriptName, resolution.face.file)
        for step in resolution.trace { print("  " + step) }
        // End of the sample.
        #expect(resolution.face.postscriptName == "Lato-Bold")
        #expect(resolution.face.file == fonts + "/Lato/Lato-Bold.ttf")
        #expect(resolution.match == .exactName)
        #expect(resolution.requestedWeight == 600)
        #expect(resolution.effectiveWeight == 700)
        #expect(resolution.trace.count > 2)
    }

    @Test func anUnknownFamilyInStrictModeThrowsWithSuggestions() throws {
        let fonts = Fixtures.bundled
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [fonts]))
        #expect(throws: ResolveError.familyNotFound(family: "Latto", suggestions: ["Lato"])) {
            try registry.resolve(ResolveQuery(family: "Latto", strict: true))
        }
    }
}

import FontRegTestSupport
import Testing

@testable import FontRegCore

/// Resolution over the fixture families, one test per quirk in `naming-rules.md`.
@Suite struct ResolverTests {
    static let quirkRules = RuleSet(rules: [
        FamilyRule(
            family: "Neue Fixture", familyName: "NeueFixture",
            weightNames: FamilyRule.defaultWeightNames.merging([200: "UltraLight", 400: ""]) { $1 },
            supportedWeights: [100, 200, 300, 400, 500, 700], source: "test"),
        FamilyRule(
            family: "Avenir Fixture", familyName: "AvenirFixture",
            weightNames: FamilyRule.defaultWeightNames.merging([200: "UltraLight", 600: "DemiBold", 800: "Heavy"]) {
                $1
            },
            supportedWeights: [200, 400, 500, 600, 700, 800], source: "test"),
        FamilyRule(
            family: "Gothic Fixture Neo", familyName: "GothicFixtureNeo",
            weightNames: FamilyRule.defaultWeightNames.merging([200: "UltraLight", 800: "Bold", 900: "Bold"]) { $1 },
            source: "test"),
        FamilyRule(
            family: "SF Fixture Display", familyName: "SFFixtureDisplay",
            weightNames: FamilyRule.defaultWeightNames.merging([200: "UltraLight", 800: "Heavy"]) { $1 }, source: "test"
        ),
        FamilyRule(
            family: "Fixture Sans", familyName: "FixtureSans",
            aliases: [.init(name: "Old Fixture Sans", deprecated: true), .init(name: "FS", deprecated: false)],
            source: "test"),
    ])

    let withRules = Resolver(index: Fixtures.registry.index, rules: quirkRules)
    let withoutRules = Resolver(index: Fixtures.registry.index)

    func resolve(
        _ family: String, _ weight: Int, italic: Bool = false, boldText: Bool = false,
        policy: BoldTextPolicy? = nil, rules: Bool = true
    ) throws -> Resolution {
        let query = ResolveQuery(
            family: family, weight: FontWeight(weight)!, italic: italic, boldText: boldText, boldPolicy: policy,
            strict: true)
        return try (rules ? withRules : withoutRules).resolve(query)
    }

    @Test func completeFamilyResolvesEveryStepByComposedName() throws {
        for step in FontWeight.steps {
            let answer = try resolve("Fixture Sans", step.value)
            #expect(answer.match == .exactName)
            #expect(answer.face.weight == step.value)
        }
    }

    @Test func familyNamesAreNormalized() throws {
        for spelling in ["Fixture Sans", "FixtureSans", "fixture-sans", "FIXTURE_SANS"] {
            #expect(try resolve(spelling, 700).face.postscriptName == "FixtureSans-Bold")
        }
    }

    @Test func regularItalicNamedItalicIsFoundByWeightWhenTheComposedNameIsAbsent() throws {
        let answer = try resolve("Fixture Sans", 400, italic: true)
        #expect(answer.composedName == "FixtureSans-RegularItalic")
        #expect(answer.face.postscriptName == "FixtureSans-Italic")
        #expect(answer.match == .familyWeight)
    }

    @Test func boldTextStepsToTheNextHeavierWeight() throws {
        let answer = try resolve("Fixture Sans", 700, italic: true, boldText: true)
        #expect(answer.face.postscriptName == "FixtureSans-ExtraBoldItalic")
        #expect(answer.requestedWeight == 700 && answer.effectiveWeight == 800)
        #expect(answer.boldPolicy == .nextHeavier)
        #expect(try resolve("Fixture Sans", 900, boldText: true).face.postscriptName == "FixtureSans-Black")
    }

    @Test func helveticaNeueLikeRegularHasNoWeightName() throws {
        #expect(try resolve("Neue Fixture", 400).face.postscriptName == "NeueFixture")
        #expect(try resolve("Neue Fixture", 400).match == .exactName)
        #expect(try resolve("Neue Fixture", 400, italic: true).face.postscriptName == "NeueFixture-Italic")
        #expect(try resolve("Neue Fixture", 200).face.postscriptName == "NeueFixture-UltraLight")
    }

    @Test func boldTextUsesTheRulesSupportedWeights() throws {
        // Neue supports 100, 200, 300, 400, 500, 700: bold text on medium skips the missing 600.
        let answer = try resolve("Neue Fixture", 500, boldText: true)
        #expect(answer.effectiveWeight == 700)
        #expect(answer.face.postscriptName == "NeueFixture-Bold")
        #expect(answer.warnings.contains { $0.contains("wants 600") })
    }

    @Test func avenirNextLikeSemiboldIsDemiBoldAnd800IsHeavy() throws {
        #expect(try resolve("Avenir Fixture", 600).face.postscriptName == "AvenirFixture-DemiBold")
        #expect(try resolve("Avenir Fixture", 600, italic: true).face.postscriptName == "AvenirFixture-DemiBoldItalic")
        let bold = try resolve("Avenir Fixture", 700, boldText: true)
        #expect(bold.face.postscriptName == "AvenirFixture-Heavy")
        #expect(bold.match == .exactName)
        // Bold Text on heavy (800) stays heavy: it is the heaviest supported weight.
        #expect(try resolve("Avenir Fixture", 800, boldText: true).effectiveWeight == 800)
    }

    @Test func withoutARuleDemiBoldIsStillFoundByWeight() throws {
        let answer = try resolve("Avenir Fixture", 600, rules: false)
        #expect(answer.composedName == "AvenirFixture-SemiBold")
        #expect(answer.face.postscriptName == "AvenirFixture-DemiBold")
        #expect(answer.match == .familyWeight)
    }

    @Test func sdGothicLikeWeightsAboveBoldMapToBold() throws {
        let answer = try resolve("Gothic Fixture Neo", 900)
        #expect(answer.face.postscriptName == "GothicFixtureNeo-Bold")
        #expect(answer.match == .exactName)
        let unruled = try resolve("Gothic Fixture Neo", 800, rules: false)
        #expect(unruled.face.postscriptName == "GothicFixtureNeo-Bold")
        #expect(unruled.match == .nearestWeight)
        #expect(unruled.warnings.contains { $0.contains("Substituted weight 700 for 800") })
    }

    @Test func sfProLikeNamesMatchWithoutRegardToCase() throws {
        let answer = try resolve("SF Fixture Display", 600)
        #expect(answer.composedName == "SFFixtureDisplay-SemiBold")
        #expect(answer.face.postscriptName == "SFFixtureDisplay-Semibold")
        #expect(answer.match == .exactName)
        #expect(try resolve("SF Fixture Display", 200).face.postscriptName == "SFFixtureDisplay-Ultralight")
    }

    @Test func latoLikeThinIs200AndHairlineIs100() throws {
        let thin = try resolve("Hairline Fixture", 100)
        #expect(thin.face.postscriptName == "HairlineFixture-Hairline")
        #expect(thin.trace.contains { $0.contains("has weight 200, not 100") })
        #expect(try resolve("Hairline Fixture", 200).face.postscriptName == "HairlineFixture-Thin")
        #expect(try resolve("Hairline Fixture", 800).face.postscriptName == "HairlineFixture-Heavy")
    }

    @Test func robotoLikeThinAt250IsANearestWeightForThin() throws {
        let answer = try resolve("Robo Fixture", 100)
        #expect(answer.face.postscriptName == "RoboFixture-Thin")
        #expect(answer.face.weight == 250)
        #expect(answer.match == .nearestWeight)
        #expect(try resolve("Robo Fixture", 250).match == .familyWeight)
    }

    @Test func openSansLikeExtraboldMatchesAndCondensedIsItsOwnFamily() throws {
        #expect(try resolve("Open Fixture", 800).face.postscriptName == "OpenFixture-Extrabold")
        #expect(try resolve("Open Fixture", 700).face.width == 5)
        #expect(try resolve("Open Fixture Condensed", 700).face.postscriptName == "OpenFixtureCondensed-Bold")
    }

    @Test func notoLikeFourFacesSubstituteAndWarn() throws {
        let medium = try resolve("Noto Fixture", 500)
        #expect(medium.face.postscriptName == "NotoFixture-Regular")  // 500: lighter before heavier-than-500
        #expect(medium.match == .nearestWeight)
        let boldText = try resolve("Noto Fixture", 400, boldText: true)
        #expect(boldText.face.postscriptName == "NotoFixture-Bold")
        #expect(boldText.warnings.contains { $0.contains("wants 500") && $0.contains("using 700") })
        #expect(try resolve("Noto Fixture", 600).face.postscriptName == "NotoFixture-Bold")
        #expect(try resolve("Noto Fixture", 300).face.postscriptName == "NotoFixture-Regular")
    }

    /// Issue 30: Bold Text below the lightest face changed nothing and said nothing.
    @Test func boldTextBelowTheLightestFaceSaysItChangesNothingAndKeepsTheSubstitution() throws {
        let plain = try resolve("Noto Fixture", 300)
        let bold = try resolve("Noto Fixture", 300, boldText: true)
        #expect(bold.face.postscriptName == plain.face.postscriptName)
        #expect(plain.warnings == ["Substituted weight 400 for 300 in \"Noto Fixture\"."])
        let warning = try #require(
            bold.warnings.first { $0.hasPrefix("Bold Text changes nothing here") }, "\(bold.warnings)")
        #expect(warning.contains("weight 300 draws its 400 face with or without Bold Text"))
        #expect(warning.contains("substituted weight 400 for 300"))
    }

    @Test func italicFallsBackToObliqueThenNormalWithAWarning() throws {
        let answer = try resolve("Oblique Fixture", 400, italic: true)
        #expect(answer.face.postscriptName == "ObliqueFixture-Oblique")
        #expect(answer.match == .nearestWeight)
        #expect(answer.warnings.contains { $0.contains("no italic face") })
        let gothic = try resolve("Gothic Fixture Neo", 700, italic: true)
        #expect(gothic.face.postscriptName == "GothicFixtureNeo-Bold")
    }

    @Test func variableInstancesResolveByNameAndOffGridWeightsByRange() throws {
        let semibold = try resolve("Fixture Var", 600)
        #expect(semibold.face.postscriptName == "FixtureVar-SemiBold")
        #expect(semibold.match == .exactName)
        let offGrid = try resolve("Fixture Var", 650)
        #expect(offGrid.composedName == nil)
        #expect(offGrid.match == .familyWeight)
        #expect(offGrid.face.weightRange == 100...900)
        #expect(offGrid.trace.contains { $0.contains("wght=650") })
        let italic = try resolve("Fixture Var", 450, italic: true)
        #expect(italic.face.italic && italic.face.weightRange == 300...700)
    }

    @Test func otherPoliciesChangeTheEffectiveWeight() throws {
        #expect(
            try resolve("Fixture Sans", 400, boldText: true, policy: .iosSystem).face.postscriptName
                == "FixtureSans-SemiBold")
        #expect(
            try resolve("Fixture Sans", 400, boldText: true, policy: .cssBolder).face.postscriptName
                == "FixtureSans-Bold")
        let android = try resolve("Fixture Sans", 700, boldText: true, policy: .android)
        #expect(android.effectiveWeight == 1000)
        #expect(android.face.postscriptName == "FixtureSans-Black")
    }

    @Test func deprecatedAliasResolvesToItsFamilyWithAWarning() throws {
        let answer = try resolve("Old Fixture Sans", 700)
        #expect(answer.face.postscriptName == "FixtureSans-Bold")
        #expect(answer.warnings.contains { $0.contains("deprecated") && $0.contains("Fixture Sans") })
        #expect(try resolve("FS", 400).warnings.isEmpty)
    }

    @Test func unknownFamilyInStrictModeNamesTheClosestFamilies() {
        #expect(throws: ResolveError.familyNotFound(family: "Fixtur Sans", suggestions: ["Fixture Sans"])) {
            try resolve("Fixtur Sans", 400)
        }
    }

    @Test func unknownFamilyWithoutStrictFallsBackToTheSystemAndSaysSo() throws {
        let registry = Fixtures.registry
        let answer = try registry.resolve(ResolveQuery(family: "No Such Family", weight: .bold))
        #expect(answer.match == .systemFallback)
        #expect(answer.warnings.contains { $0.contains("not registered") })
        #expect(answer.trace.contains { $0.contains("SYSTEM FALLBACK") })
        #expect(answer.face.file.hasPrefix("/usr/share/fonts"))
    }

    @Test func everyAnswerExplainsItself() throws {
        let answer = try resolve("Avenir Fixture", 700, boldText: true)
        #expect(answer.trace.count >= 4)
        #expect(answer.trace.contains { $0.contains("Rule from test") })
        #expect(answer.trace.contains { $0.contains("Bold Text (next-heavier)") })
        #expect(answer.trace.contains { $0.contains("AvenirFixture-Heavy") })
    }
}

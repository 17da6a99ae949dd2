import FontRegTestSupport
import Testing

@testable import FontRegCore

@Suite struct FontIndexTests {
    let index = Fixtures.registry.index

    @Test func postscriptAndFullNamesAreFoundWithoutRegardToCase() {
        #expect(
            index.face(postscriptName: "fixturesans-semibolditalic")?.postscriptName == "FixtureSans-SemiBoldItalic")
        #expect(index.face(fullName: "FIXTURE SANS SEMIBOLD ITALIC")?.postscriptName == "FixtureSans-SemiBoldItalic")
        #expect(index.face(postscriptName: "Nope-Regular") == nil)
    }

    @Test func familiesAreFoundUnderTheirNormalizedKey() {
        for name in ["Noto Fixture", "NotoFixture", "noto-fixture", "noto_fixture", "NOTO fixture"] {
            #expect(index.family(named: name)?.name == "Noto Fixture")
        }
    }

    @Test func familyFacesAreSortedByStyleThenWeight() throws {
        let faces = try #require(index.family(named: "Noto Fixture")).faces
        #expect(
            faces.map(\.postscriptName) == [
                "NotoFixture-Regular", "NotoFixture-Bold", "NotoFixture-Italic", "NotoFixture-BoldItalic",
            ])
    }

    @Test func registeredWeightsIncludeStepsInsideAVariableRange() throws {
        let family = try #require(index.family(named: "Fixture Var"))
        #expect(family.registeredWeights(style: .italic) == [300, 400, 500, 600, 700])
    }

    @Test func suggestionsNameTheClosestFamilies() {
        #expect(index.suggestions(for: "Avenir") == ["Avenir Fixture"])
        #expect(index.suggestions(for: "Noto Fixtur").first == "Noto Fixture")
        #expect(index.suggestions(for: "Qqqqqqqqqqqqq").isEmpty)
    }
}

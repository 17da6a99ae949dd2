import FontRegTestSupport
import Testing

@testable import FontRegCore

/// Answers a renderer can draw with, on the generated fixtures in `matching/`: widths, oblique
/// angles, the variable AxisFixture (wght, wdth, slnt, opsz), synthesis and ranked candidates.
@Suite struct AnswerTests {
    static let registry: FontRegistry = {
        let dirs = ["stretch", "slant", "lone", "axis"].map { Fixtures.matching + "/" + $0 } + [Fixtures.families]
        return try! FontRegistry(configuration: RegistryConfiguration(fontDirectories: dirs))
    }()

    func resolve(
        _ family: String, _ weight: Int = 400, width: Double? = nil, style: RequestedStyle = .normal,
        opticalSize: Double? = nil, synthesis: SynthesisPermission = .all
    ) throws -> Resolution {
        try Self.registry.resolve(
            ResolveQuery(
                family: family, weight: FontWeight(weight)!, strict: true, style: style, width: width,
                opticalSize: opticalSize, synthesis: synthesis))
    }

    func settings(_ resolution: Resolution) -> String {
        resolution.variations.map(\.description).joined(separator: " ")
    }

    @Test(arguments: [
        (nil, "StretchFixture-SemiCondensed"), (100.0, "StretchFixture-SemiCondensed"),
        (75, "StretchFixture-Condensed"), (50, "StretchFixture-Condensed"), (80, "StretchFixture-Condensed"),
        (112.5, "StretchFixture-Expanded"), (140, "StretchFixture-ExtraExpanded"),
        (200, "StretchFixture-ExtraExpanded"),
    ])
    func fontStretchPicksTheCSSWidth(width: Double?, expected: String) throws {
        let answer = try resolve("Stretch Fixture", width: width)
        #expect(answer.face.postscriptName == expected)
        #expect(answer.variations.isEmpty)
    }

    @Test func aMissingWidthIsTracedAndWarned() throws {
        let answer = try resolve("Stretch Fixture", width: 100)
        #expect(answer.trace.contains { $0.contains("No face of width normal") && $0.contains("semi-condensed") })
        #expect(answer.match == .nearestWeight)
    }

    @Test(arguments: [
        (RequestedStyle.oblique(angle: 10), "SlantFixture-Oblique8"), (.oblique(angle: 5), "SlantFixture-Oblique8"),
        (.oblique(angle: nil), "SlantFixture-Oblique20"), (.oblique(angle: 25), "SlantFixture-Oblique20"),
        (.oblique(angle: 0), "SlantFixture-Regular"), (.oblique(angle: -10), "SlantFixture-Oblique8"),
        (.italic, "SlantFixture-Oblique20"), (.normal, "SlantFixture-Regular"),
    ])
    func fontStylePicksTheCSSObliqueAngle(style: RequestedStyle, expected: String) throws {
        let answer = try resolve("Slant Fixture", style: style)
        #expect(answer.face.postscriptName == expected)
        #expect(answer.synthesis.isEmpty)
    }

    @Test func faceRecordsCarryWidthItalicAngleRevisionAndInstanceCoordinates() throws {
        let index = Self.registry.index
        let condensed = try #require(index.face(postscriptName: "StretchFixture-Condensed"))
        #expect(condensed.width == 3 && condensed.widthPercent == 75)
        let oblique = try #require(index.face(postscriptName: "SlantFixture-Oblique8"))
        #expect(oblique.italicAngle == -8 && oblique.oblique && oblique.obliqueAngleRange == 8...8)
        #expect(oblique.fontRevision == 1)
        let axis = try #require(index.family(named: "Axis Fixture")?.faces.first { $0.instance == nil })
        #expect(axis.axes.map(\.tag) == ["wght", "wdth", "slnt", "opsz"])
        #expect(axis.widthRange == 75...125 && axis.obliqueAngleRange == 0...12)
        let condensedInstance = try #require(index.face(postscriptName: "AxisFixture-Condensed"))
        #expect(condensedInstance.widthPercent == 75 && condensedInstance.width == 3)
        #expect(condensedInstance.coordinates.map(\.description) == ["wght=400", "wdth=75", "slnt=0", "opsz=14"])
    }

    @Test func aVariableFaceBetweenInstancesSetsWghtAndDrawsAtIt() throws {
        let answer = try resolve("Axis Fixture", 650)
        #expect(settings(answer) == "wght=650")
        #expect(answer.weight == 650)
        #expect(answer.face.instance == nil)
        #expect(answer.synthesis == .none)
        #expect(answer.trace.contains("Set wght=650 on AxisFixture-Regular."))
    }

    @Test func widthOpticalSizeAndSlantAreSetOnTheAxesThatCoverThem() throws {
        #expect(settings(try resolve("Axis Fixture", 500, width: 90)) == "wght=500 wdth=90")
        #expect(settings(try resolve("Axis Fixture", 650, opticalSize: 24)) == "wght=650 opsz=24")
        #expect(settings(try resolve("Axis Fixture", style: .oblique(angle: 6))) == "wght=400 slnt=-6")
        let italic = try resolve("Axis Fixture", style: .italic)
        #expect(italic.face.postscriptName == "AxisFixture-Oblique")
        #expect(settings(italic) == "wght=400 slnt=-12")
        #expect(italic.synthesis.isEmpty)
    }

    @Test func aNamedInstanceKeepsItsOwnCoordinatesAndOnlyWhatTheQueryAsksChanges() throws {
        let index = Self.registry.index
        let display = try #require(index.face(postscriptName: "AxisFixture-DisplayBold"))
        let query = ResolveQuery(family: "Axis Fixture", weight: .bold)
        let kept = Rendering.answer(
            face: display, rank: FaceMatcher.rank(display, for: .init(weight: 700)), query: query, effective: 700)
        #expect(kept.variations.map(\.description) == ["wght=700", "opsz=48"])
        var small = query
        small.opticalSize = 12
        let changed = Rendering.answer(
            face: display, rank: FaceMatcher.rank(display, for: .init(weight: 700)), query: small, effective: 700)
        #expect(changed.variations.map(\.description) == ["wght=700", "opsz=12"])
        let condensed = try resolve("Axis Fixture", width: 75)
        #expect(condensed.face.postscriptName == "AxisFixture-Condensed")
        #expect(settings(condensed) == "wght=400 wdth=75")
    }

    @Test func aWeightOutsideTheAxisIsClampedWithATraceStepAndNoSynthesis() throws {
        let answer = try resolve("Axis Fixture", 950)
        #expect(settings(answer) == "wght=900")
        #expect(answer.weight == 900)
        #expect(answer.synthesis == .none)
        #expect(answer.trace.contains("wght 950 is outside the axis range 100–900: clamped to 900."))
        let opsz = try resolve("Axis Fixture", opticalSize: 96)
        #expect(settings(opsz) == "wght=400 opsz=48")
    }

    @Test func onlyRegularAskedFor700ItalicSynthesizesBoldAndOblique() throws {
        let answer = try resolve("Lone Fixture", 700, style: .italic)
        #expect(answer.face.postscriptName == "LoneFixture-Regular")
        #expect(answer.synthesis == Synthesis(bold: true, oblique: true, obliqueAngle: 14))
        #expect(answer.weight == 400)
        #expect(answer.trace.contains { $0.hasPrefix("The renderer must synthesize bold") })
        // Browsers slant an upright face from about 14° up, at their fixed angle, not the asked one.
        let slight = try resolve("Lone Fixture", style: .oblique(angle: 10))
        #expect(slight.synthesis == .none)
        let steep = try resolve("Lone Fixture", style: .oblique(angle: 30))
        #expect(steep.synthesis == Synthesis(oblique: true, obliqueAngle: 14))
        #expect(try resolve("Lone Fixture", style: .oblique(angle: -20)).synthesis == .none)
        #expect(try resolve("Lone Fixture", style: .oblique(angle: nil)).synthesis == Synthesis(oblique: true))
    }

    /// The renderer's answer for the Lone Fixture's upright face declared at `weight`, asked `effective`.
    private func rendering(faceWeight weight: Int, asked effective: Int) throws -> Rendering.Answer {
        var face = try resolve("Lone Fixture").face
        face.weight = weight
        return Rendering.answer(
            face: face, rank: nil, query: ResolveQuery(family: "Lone Fixture"), effective: effective)
    }

    @Test(arguments: [600, 700, 750])
    func aMediumFaceAskedForSemiboldOrHeavierIsEmboldenedAsBrowsersDo(asked: Int) throws {
        #expect(try rendering(faceWeight: 500, asked: asked).synthesis == Synthesis(bold: true))
    }

    @Test(arguments: [(400, 550), (600, 900), (500, 599)])
    func aFaceIsNotEmboldenedBelowSemiboldOrWhenItIsSemiboldAlready(face: Int, asked: Int) throws {
        #expect(try rendering(faceWeight: face, asked: asked).synthesis == .none)
    }

    @Test func aVariableFaceWhoseWeightAxisReachesTheWeightIsNotEmboldened() throws {
        let answer = try resolve("Axis Fixture", 700)
        #expect(settings(answer) == "wght=700")
        #expect(answer.synthesis == .none)
        var short = answer.face
        let wght = try #require(short.axes.firstIndex { $0.tag == "wght" })
        short.axes[wght].maximum = 500
        let clamped = Rendering.answer(
            face: short, rank: nil, query: ResolveQuery(family: "Axis Fixture"), effective: 700)
        #expect(clamped.weight == 500)
        #expect(clamped.synthesis == Synthesis(bold: true))
    }

    @Test func theQueryCanForbidEitherSynthesis() throws {
        let none = try resolve("Lone Fixture", 700, style: .italic, synthesis: .none)
        #expect(none.synthesis == .none)
        #expect(none.trace.contains { $0.contains("forbids synthesis") })
        let weightOnly = try resolve(
            "Lone Fixture", 700, style: .italic, synthesis: SynthesisPermission(parsing: "weight")!)
        #expect(weightOnly.synthesis == Synthesis(bold: true))
        let styleOnly = try resolve(
            "Lone Fixture", 700, style: .italic, synthesis: SynthesisPermission(parsing: "style")!)
        #expect(styleOnly.synthesis == Synthesis(oblique: true))
    }

    @Test func aBoldFaceAskedFor900IsNotEmboldenedAgain() throws {
        let answer = try resolve("Noto Fixture", 900)
        #expect(answer.face.postscriptName == "NotoFixture-Bold")
        #expect(answer.synthesis == .none)
        #expect(try resolve("Noto Fixture", 700, style: .italic).synthesis == .none)
    }

    @Test func candidatesListTheFamilyInCSSOrderWithVariationsAndSynthesis() throws {
        let list = try Self.registry.candidates(ResolveQuery(family: "Stretch Fixture", weight: .bold))
        #expect(
            list.candidates.map(\.face.postscriptName) == [
                "StretchFixture-SemiCondensed", "StretchFixture-Condensed", "StretchFixture-Expanded",
                "StretchFixture-ExtraExpanded",
            ])
        #expect(list.candidates.allSatisfy { $0.synthesis.bold && !$0.exact })
        let axis = try Self.registry.candidates(ResolveQuery(family: "Axis Fixture", weight: FontWeight(650)!))
        #expect(axis.candidates.first?.face.instance == nil)
        #expect(axis.candidates.first?.variations.map(\.description) == ["wght=650"])
        #expect(axis.candidates.first?.exact == true)
        #expect(axis.candidates.count == 7)
        #expect(throws: ResolveError.self) { try Self.registry.candidates(ResolveQuery(family: "Nothing Here")) }
        let slant = try Self.registry.candidates(ResolveQuery(family: "Slant Fixture", style: .oblique(angle: 10)))
        #expect(
            slant.candidates.map(\.face.postscriptName) == [
                "SlantFixture-Oblique8", "SlantFixture-Oblique20", "SlantFixture-Regular",
            ])
        #expect(!slant.candidates[0].exact)  // 8° is not the 10° asked
        #expect(slant.candidates[2].synthesis == .none)  // browsers slant nothing at 10°
        #expect(try resolve("Slant Fixture", style: .oblique(angle: 10)).match == .nearestWeight)
        #expect(try resolve("Slant Fixture", style: .oblique(angle: 8)).match == .familyWeight)
    }
}

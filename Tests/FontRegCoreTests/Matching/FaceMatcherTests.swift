import Testing

@testable import FontRegCore

/// CSS Fonts 4 §5.2 on synthetic faces: width before style before weight, and the
/// oblique-angle order around the 11° threshold (the web-platform-tests' matching cases).
@Suite struct FaceMatcherTests {
    static func face(
        _ name: String, weight: Int = 400, width: Double = 100, italic: Bool = false, angle: Double? = nil,
        axes: [VariationAxis] = []
    ) -> FaceRecord {
        FaceRecord(
            postscriptName: name, family: "F", subfamily: "", fullName: name, weight: weight, italic: italic,
            oblique: angle != nil, width: FontWidth.widthClass(percentage: width), file: "/f/\(name).ttf",
            axes: axes, widthPercent: width, italicAngle: -(angle ?? (italic ? 12 : 0)))
    }

    func pick(_ faces: [FaceRecord], width: Double = 100, style: RequestedStyle = .normal, weight: Int = 400)
        -> String?
    {
        FaceMatcher.best(faces, for: .init(width: width, style: style, weight: weight))?.face.postscriptName
    }

    static let widths = [75.0, 87.5, 125, 150].map { face("w\(VariationSetting.format($0))", width: $0) }

    @Test(arguments: [
        (100.0, "w87.5"), (90, "w87.5"), (87.5, "w87.5"), (80, "w75"), (50, "w75"), (62.5, "w75"),
        (112.5, "w125"), (110, "w125"), (130, "w150"), (200, "w150"),
    ])
    func widthAtOrBelow100TriesNarrowerFirstAndAbove100WiderFirst(desired: Double, expected: String) {
        #expect(pick(Self.widths, width: desired) == expected)
    }

    @Test func widthIsDecidedBeforeStyleAndStyleBeforeWeight() {
        let faces = [
            Self.face("condensed-400", width: 75), Self.face("normal-700", weight: 700),
            Self.face("normal-italic-400", italic: true),
        ]
        #expect(pick(faces, width: 75, style: .italic, weight: 700) == "condensed-400")
        #expect(pick(faces, style: .italic, weight: 700) == "normal-italic-400")
        #expect(pick(faces, weight: 700) == "normal-700")
    }

    @Test func aWdthAxisCoversItsRangeAndIsSetToTheDesiredWidth() throws {
        let variable = Self.face(
            "var", axes: [VariationAxis(tag: "wdth", minimum: 75, defaultValue: 100, maximum: 125)])
        let best = try #require(
            FaceMatcher.best([Self.face("static-87.5", width: 87.5), variable], for: .init(width: 80)))
        #expect(best.face.postscriptName == "var")
        #expect(best.rank.width == 80)
    }

    static let slants = [Self.face("upright"), Self.face("o5", angle: 5), Self.face("o15", angle: 15)]

    @Test(arguments: [
        (10.0, "o5"),  // 0 ≤ a < 11: none in [10, 11), then positive below descending
        (3, "o5"),  // [3, 11) ascending
        (12, "o15"),  // a ≥ 11: ≥ 12 ascending
        (20, "o15"),  // none ≥ 20: positive below descending
        (-10, "o5"),  // negative angles mirror: closest to 0 first among the positive ones
    ])
    func obliqueAnglesFollowTheOrderAroundEleven(angle: Double, expected: String) {
        #expect(pick(Self.slants, style: .oblique(angle: angle)) == expected)
    }

    @Test func aSmallAngleWithNothingBelowTakesAnAngleFromElevenUp() {
        let faces = [Self.face("upright"), Self.face("o20", angle: 20)]
        #expect(pick(faces, style: .oblique(angle: 5)) == "o20")
    }

    @Test func italicTriesItalicThenObliqueThenNormal() {
        #expect(pick(Self.slants, style: .italic) == "o15")  // as oblique 14deg
        #expect(pick(Self.slants + [Self.face("italic", italic: true)], style: .italic) == "italic")
        #expect(pick([Self.face("upright")], style: .italic) == "upright")
    }

    @Test func obliqueTriesObliqueThenItalicThenNormal() {
        let faces = [Self.face("upright"), Self.face("italic", italic: true)]
        #expect(pick(faces, style: .oblique(angle: nil)) == "italic")
        #expect(pick(faces + [Self.face("o8", angle: 8)], style: .oblique(angle: nil)) == "o8")
    }

    @Test func normalTriesUprightThenObliqueThenItalic() {
        #expect(pick([Self.face("italic", italic: true), Self.face("o8", angle: 8)]) == "o8")
        #expect(pick([Self.face("italic", italic: true), Self.face("upright", weight: 900)]) == "upright")
    }

    @Test func aSlntAxisServesUprightAndObliqueAtTheAskedAngle() throws {
        let slnt = VariationAxis(tag: "slnt", minimum: -10, defaultValue: 0, maximum: 0)
        let variable = Self.face("var", axes: [slnt])
        #expect(try #require(FaceMatcher.best([variable], for: .init(style: .normal))).rank.angle == 0)
        #expect(try #require(FaceMatcher.best([variable], for: .init(style: .oblique(angle: 6)))).rank.angle == 6)
        let italic = try #require(FaceMatcher.best([variable], for: .init(style: .italic)))
        #expect(italic.rank.angle == 10)
        #expect(!italic.rank.styleMatches)
    }

    @Test func anItalAxisServesItalic() throws {
        let ital = VariationAxis(tag: "ital", minimum: 0, defaultValue: 0, maximum: 1)
        let variable = Self.face("var", axes: [ital])
        let italic = try #require(FaceMatcher.best([Self.face("o8", angle: 8), variable], for: .init(style: .italic)))
        #expect(italic.face.postscriptName == "var")
        #expect(italic.rank.italicAxis)
    }

    @Test func orderedListsEveryFaceBestFirst() {
        let faces = Self.widths
        let order = FaceMatcher.ordered(faces, for: .init(width: 100)).map(\.face.postscriptName)
        #expect(order == ["w87.5", "w75", "w125", "w150"])
    }

    @Test func queryWordsParse() {
        #expect(FontWidth.parse("semi-condensed") == 87.5)
        #expect(FontWidth.parse("87.5%") == 87.5)
        #expect(FontWidth.parse("125") == 125)
        #expect(FontWidth.parse("narrow") == nil)
        #expect(RequestedStyle(parsing: "oblique 10deg") == .oblique(angle: 10))
        #expect(RequestedStyle(parsing: "oblique") == .oblique(angle: nil))
        #expect(RequestedStyle(parsing: "Italic") == .italic)
        #expect(RequestedStyle(parsing: "oblique 100deg") == nil)
        #expect(SynthesisPermission(parsing: "style weight") == .all)
        #expect(SynthesisPermission(parsing: "none") == SynthesisPermission.none)
        #expect(SynthesisPermission(parsing: "weight") == SynthesisPermission(weight: true, style: false))
        #expect(SynthesisPermission(parsing: "bold") == nil)
    }
}

import FontRegCore
import FontRegTestSupport
import Testing

/// The layout answer (issue 27) on real Debian fonts: Lato (USE_TYPO_METRICS, typo ≠ hhea),
/// Roboto (hhea 1900/−500 on 2048) and Inter (scripts/setup-deps.sh --test).
@Suite("Layout answer")
struct LayoutAnswerTests {
    static let files = [
        "/usr/share/fonts/truetype/lato/Lato-Regular.ttf",
        "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
        "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
    ]

    static let registry: FontRegistry = {
        let cache = Fixtures.temporaryDirectory()
        return try! FontRegistry(configuration: RegistryConfiguration(fontFiles: files, cacheDirectory: cache))
    }()

    static func face(_ name: String) throws -> FaceRecord {
        try #require(registry.index.faces.first { $0.postscriptName == name })
    }

    static func answer(_ name: String, size: Double = 16, _ lineHeight: String = "24px") throws -> LayoutAnswer {
        try LayoutAnswer(face: face(name), size: size, lineHeight: #require(LineHeight(parsing: lineHeight)))
    }

    @Test(
        "Figma's baseline is half-leading around the hhea ascender and descender: Lato 18.19, Roboto 17.47 at 16 on 24",
        arguments: [("Lato-Regular", 18.192), ("Roboto-Regular", 17.46875), ("Inter-Regular", 17.82)])
    func figmaBaselineIsHalfLeadingAroundHhea(_ name: String, _ expected: Double) throws {
        let answer = try Self.answer(name)
        #expect(abs(answer.figma.baseline - expected) < 0.01)
        let m = answer.face.metrics
        let s = 16 / Double(m.unitsPerEm)
        let ascent = Double(m.hhea.ascender) * s
        let content = Double(m.hhea.ascender - m.hhea.descender) * s
        let formula = (24 - content) / 2 + ascent
        #expect(answer.figma.baseline == formula)
    }

    @Test(
        "Figma's AUTO line height is Roboto's hhea 1.171875 em: 16.40625 at 14, 21.09375 at 18, 28.125 at 24",
        arguments: [(14.0, 16.40625), (18.0, 21.09375), (24.0, 28.125)])
    func figmaAutoLineHeightUsesHhea(_ size: Double, _ expected: Double) throws {
        #expect(try Self.answer("Roboto-Regular", size: size).figma.autoLineHeight == expected)
    }

    @Test("The CSS overrides are the hhea values in % of the em, and put the CSS baseline at Figma's")
    func cssOverridesPinTheHheaMetrics() throws {
        let lato = try Self.answer("Lato-Regular")
        #expect(lato.css.ascentOverride == 98.7 && lato.css.descentOverride == 21.3)
        #expect(lato.css.lineGapOverride == 0 && lato.css.sizeAdjust == 100 && lato.css.lineHeight == 24)
        // Half-leading with the overridden metrics: (L − (asc + desc)% · size)/2 + asc% · size.
        let ascent: Double = lato.css.ascentOverride / 100 * 16
        let descent: Double = lato.css.descentOverride / 100 * 16
        let baseline: Double = (24 - ascent - descent) / 2 + ascent
        #expect(abs(baseline - lato.figma.baseline) < 1e-9)
        #expect(lato.css.baseline == lato.figma.baseline)
    }

    @Test("iOS follows YMatterType: fixed line, offset rounded up at @3x, cap height centred within a pixel")
    func iosCentresTheCapHeight() throws {
        for name in ["Lato-Regular", "Roboto-Regular", "Inter-Regular"] {
            let answer = try Self.answer(name)
            let m = answer.face.metrics
            let s = 16 / Double(m.unitsPerEm)
            let descent: Double = Double(-m.hhea.descender + m.hhea.lineGap) * s
            let cap: Double = Double(m.capHeight) * s
            #expect(answer.ios.minimumLineHeight == 24 && answer.ios.maximumLineHeight == 24)
            let raw: Double = (24 - 2 * descent - cap) / 4
            #expect(answer.ios.baselineOffset == (raw * 3).rounded(.up) / 3)
            // Unrounded, the cap-height box is centred: y = (L + cap·s)/2 (Lato 17.73, Roboto 17.69).
            let centred: Double = (24 + cap) / 2
            #expect(answer.ios.baseline <= centred + 1e-9)
            #expect(answer.ios.baseline > centred - 2.0 / 3)
        }
        let latoCentre: Double = (24 + 1433 * 0.008) / 2
        #expect(abs(latoCentre - 17.73) < 0.01)
    }

    @Test(
        "Android pins the first baseline to Figma's; Flutter's height is the multiple; Compose centres, trims nothing")
    func androidFlutterAndComposeSettings() throws {
        let answer = try Self.answer("Roboto-Regular", size: 16, "150%")
        #expect(answer.lineHeight == 24)
        #expect(answer.android.firstBaselineToTopHeight == answer.figma.baseline)
        #expect(answer.android.lastBaselineToBottomHeight == 24 - answer.figma.baseline)
        #expect(!answer.android.includeFontPadding)
        #expect(answer.flutter.height == 1.5 && answer.flutter.leadingDistribution == "even")
        #expect(answer.compose.alignment == "Center" && answer.compose.trim == "None")
    }

    @Test(
        "A line height is pixels, a multiple of the size or a percentage of it",
        arguments: [("24px", 24.0), ("1.5", 24.0), ("150%", 24.0), (" 20PX ", 20.0), ("1.25", 20.0)])
    func lineHeightForms(_ text: String, _ pixels: Double) throws {
        #expect(try #require(LineHeight(parsing: text)).pixels(size: 16) == pixels)
    }

    @Test("A line height that is not a positive number is refused", arguments: ["", "px", "-1", "0", "abc", "1.5em"])
    func badLineHeightsAreRefused(_ text: String) {
        #expect(LineHeight(parsing: text) == nil)
    }

    @Test("A face without metrics and a size not above zero are errors, not answers")
    func faceWithoutMetricsIsAnError() throws {
        let bare = FaceRecord(
            postscriptName: "Bare", family: "Bare", subfamily: "Regular", fullName: "Bare",
            weight: 400, italic: false, file: "/bare.ttf")
        #expect(throws: LayoutError.noMetrics(postscriptName: "Bare")) {
            try LayoutAnswer(face: bare, size: 16, lineHeight: .pixels(24))
        }
        #expect(throws: LayoutError.invalidSize(0)) {
            try LayoutAnswer(face: try Self.face("Lato-Regular"), size: 0, lineHeight: .pixels(24))
        }
    }
}

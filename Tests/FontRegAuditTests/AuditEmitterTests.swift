import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore

/// The emitters in process, on the fixture fonts: variable faces, names, paths.
@Suite struct AuditEmitterTests {
    static let wiring: AuditWiring = {
        let document = try! TypographyReader.read(path: AuditFixtures.tokens("dtcg/design-system.tokens.json"))
        let faces = AuditFixtures.fixtureIndex.faces
        let report = Auditor().audit([document], faces: faces)
        return AuditWiring(report: report, faces: faces, uses: document.uses)
    }()

    @Test func variableFaceIsOneFaceServingEveryWeightItCovers() throws {
        let family = try #require(Self.wiring.families.first { $0.name == "Fixture Var" })
        #expect(family.faces.count == 1)
        #expect(family.faces[0].isVariable)
        #expect(family.faces[0].weights == [653, 700])
        #expect(family.faces[0].weightAxisRange == 100...900)
    }

    @Test func cssDeclaresTheWholeAxisRangeOfAVariableFace() throws {
        let css = try #require(
            CSSFontFaceEmitter.emit(Self.wiring, locations: EmitLocations(output: "/out")).first?.text)
        let rule = try #require(css.components(separatedBy: "@font-face").first { $0.contains("\"Fixture Var\"") })
        #expect(rule.contains("font-weight: 100 900;"))
        #expect(rule.contains("format(\"truetype\")"))
        // Without --copy-fonts the URL points at the registered file, relative to /out/css.
        let file = AuditFixtures.testsRoot.appendingPathComponent("Fixtures/fonts/variable/FixtureVar[wght].ttf").path
        #expect(rule.contains("src: url(\"../..\(file)\") format(\"truetype\");"))
    }

    @Test func androidListsAVariableFacePerWeightWithItsVariationSettings() throws {
        let files = AndroidFontEmitter.emit(Self.wiring)
        let xml = try #require(files.first { $0.path == "android/res/font/fixture_var.xml" }?.text)
        #expect(xml.contains("android:fontWeight=\"653\""))
        #expect(xml.contains("android:fontVariationSettings=\"'wght' 653\""))
        #expect(xml.contains("android:fontVariationSettings=\"'wght' 700\""))
        #expect(files.contains { $0.path == "android/res/font/fixturevar_wght.ttf" })
    }

    @Test func flutterListsAVariableFaceOnceWithoutAWeight() throws {
        let yaml = try #require(FlutterFontEmitter.emit(Self.wiring).first?.text)
        let block = try #require(yaml.components(separatedBy: "- family: ").first { $0.hasPrefix("\"Fixture Var\"") })
        #expect(block.components(separatedBy: "asset:").count == 2)
        #expect(!block.contains("weight:"))
    }

    @Test(arguments: [
        ("Lato-Bold.ttf", true, "lato_bold.ttf"), ("FixtureVar[wght].ttf", true, "fixturevar_wght.ttf"),
        ("3D Sans", false, "font_3d_sans"), ("Noto Sans CJK", false, "noto_sans_cjk"),
    ])
    func androidResourceNamesAreLegal(name: String, keepExtension: Bool, expected: String) {
        #expect(AndroidFontEmitter.resourceName(name, extension: keepExtension) == expected)
    }

    @Test(arguments: [
        ("text.bodyStrong", "text-body-strong"), ("Typography.Label.large", "typography-label-large"),
        ("typography.heading.large.desktop", "typography-heading-large-desktop"),
    ])
    func customPropertyNamesAreKebabCase(name: String, expected: String) {
        #expect(CSSFontFaceEmitter.propertyName(name) == expected)
    }

    @Test func relativePathsClimbOutOfTheEmittedFolder() {
        #expect(EmitLocations.relativePath(of: "/a/fonts/x.ttf", from: "/a/out/css") == "../../fonts/x.ttf")
        #expect(EmitLocations.relativePath(of: "/a/out/fonts/x.ttf", from: "/a/out/css") == "../fonts/x.ttf")
    }

    @Test func iosNamesFollowThePostScriptPrefix() {
        #expect(IOSFontEmitter.familyPrefix(["Lato-Bold", "Lato-Heavy", "Other-Bold"]) == "Lato")
        #expect(IOSFontEmitter.swiftTypeName("Fixture Var", style: .italic) == "FixtureVarItalicFontFamily")
        #expect(IOSFontEmitter.swiftTypeName("3D", style: .normal) == "Font3DFontFamily")
    }

    @Test(arguments: [(450, 400), (451, 500), (449, 400), (653, 700), (350, 300), (950, 900), (50, 100), (700, 700)])
    func iosOffGridWeightTakesTheNearestCaseTiesToTheLighter(weight: Int, expected: Int) {
        #expect(IOSFontEmitter.weightCase(for: weight) == expected)
    }

    @Test func iosListsAnOffGridWeightOfAVariableFaceAsItsNearestCase() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("outcome/variable-450.tokens.json"))
        let faces = AuditFixtures.fixtureIndex.faces
        let report = Auditor().audit([document], faces: faces)
        let wiring = AuditWiring(report: report, faces: faces, uses: document.uses)
        let family = try #require(wiring.families.first { $0.name == "Fixture Var" })
        #expect(family.faces.count == 1)
        #expect(family.faces[0].weights == [450, 500])
        let source = try #require(
            IOSFontEmitter.emit(wiring).first { $0.path == "ios/FontRegFixtureVarFontFamily.swift" }?.text)
        #expect(source.contains("var supportedWeights: [Typography.FontWeight] { [.regular, .medium] }"))
        #expect(source.contains("// 450 is off the grid: declare its styles as .regular"))
        let file = AuditFixtures.temporaryDirectory().appendingPathComponent("FixtureVarFontFamily.swift")
        try Data(source.utf8).write(to: file)
        let run = try runCommand(["/opt/swift/usr/bin/swiftc", "-parse", file.path])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func familyWhoseNamesBreakThePatternGetsAFontNameOverrideThatParses() throws {
        func face(_ name: String, _ weight: Int) -> AuditWiring.Face {
            AuditWiring.Face(
                record: FaceRecord(
                    postscriptName: name, family: "Odd Sans", subfamily: "", fullName: name, weight: weight,
                    italic: false, file: "/f/\(name).otf"),
                weights: [weight], style: .normal)
        }
        let family = AuditWiring.Family(
            name: "Odd Sans", registeredFamily: "Odd Sans",
            faces: [face("OddSans-Book", 400), face("OddSansBold", 700)])
        let source = IOSFontEmitter.source(
            typeName: "OddSansFontFamily", family: family, faces: family.faces, style: .normal)
        #expect(source.contains("func fontName(for weight: Typography.FontWeight, compatibleWith"))
        #expect(source.contains("case .bold: return \"OddSansBold\""))
        #expect(source.contains("case .regular: return \"OddSans-Book\""))
        let file = AuditFixtures.temporaryDirectory().appendingPathComponent("OddSansFontFamily.swift")
        try Data(source.utf8).write(to: file)
        let run = try runCommand(["/opt/swift/usr/bin/swiftc", "-parse", file.path])
        #expect(run.status == 0, "\(run.stderr)")
    }
}

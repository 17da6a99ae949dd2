import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore

/// The emitted iOS Swift compiles against both YMatterType releases (issue 25, item 4), checked
/// with `swiftc -typecheck` against small stand-ins of `UIKit` and of YMatterType's protocol as
/// each release declares it (1.x `FontRepresentable` in `Typography/FontRepresentable.swift`,
/// 2.x `FontFamily` in `Typography/FontFamily/FontFamily.swift` and `Typography+Enums.swift`),
/// with the protocols' default implementations, so that a wrong case name, a missing `switch`
/// case or a wrong signature fails.
@Suite struct IOSEmitterTypecheckTests {
    static let uikit = """
        import Foundation
        public enum UILegibilityWeight { case regular, bold, unspecified }
        public final class UITraitCollection { public var legibilityWeight: UILegibilityWeight = .regular }
        public final class UIFont {}
        """

    /// The weight enum and protocol of a release, with its defaults (signatures as the release has them).
    static func ymattertype(_ api: IOSFontEmitter.API) -> String {
        let (cases, conformance, supported) =
            api == .ymattertype1
            ? (
                "case ultralight = 100, thin = 200, light = 300, regular = 400, medium = 500, semibold = 600, bold = 700, heavy = 800, black = 900",
                "FontRepresentable", ""
            )
            : (
                "case thin = 100, extraLight = 200, light = 300, regular = 400, medium = 500, semibold = 600, bold = 700, extraBold = 800, black = 900, extraBlack = 950",
                "FontFamily", "var supportedWeights: [Typography.FontWeight] { get }"
            )
        return """
            import Foundation
            import UIKit
            public struct Typography {
                public enum FontWeight: CGFloat, CaseIterable { \(cases) }
                public enum FontStyle: String, CaseIterable { case regular = "normal", italic }
                public init(
                    fontFamily: \(conformance), fontWeight: FontWeight, fontSize: CGFloat, lineHeight: CGFloat,
                    letterSpacing: CGFloat = 0, isFixed: Bool = false
                ) {}
            }
            public protocol \(conformance) {
                var familyName: String { get }
                var fontNameSuffix: String { get }
                \(supported)
                func fontName(for weight: Typography.FontWeight, compatibleWith traitCollection: UITraitCollection?) -> String
                func weightName(for weight: Typography.FontWeight) -> String
                func accessibilityBoldWeight(for weight: Typography.FontWeight) -> Typography.FontWeight
            }
            extension \(conformance) {
                public var fontNameSuffix: String { "" }
                public func fontName(for weight: Typography.FontWeight, compatibleWith traitCollection: UITraitCollection?) -> String { familyName }
                public func weightName(for weight: Typography.FontWeight) -> String { "" }
                public func accessibilityBoldWeight(for weight: Typography.FontWeight) -> Typography.FontWeight { weight }
            }
            """
    }

    /// Builds the stand-in modules of `api` and type-checks `sources` against them.
    static func typecheck(_ sources: [String: String], api: IOSFontEmitter.API) throws -> (
        status: Int32, stderr: String
    ) {
        let swiftc = "/opt/swift/usr/bin/swiftc"
        try #require(FileManager.default.isExecutableFile(atPath: swiftc), "the Swift toolchain's swiftc")
        let folder = AuditFixtures.temporaryDirectory()
        let uikit = folder.appendingPathComponent("UIKit.swift")
        let ymt = folder.appendingPathComponent("YMatterType.swift")
        try Data(Self.uikit.utf8).write(to: uikit)
        try Data(Self.ymattertype(api).utf8).write(to: ymt)
        for (module, file) in [("UIKit", uikit), ("YMatterType", ymt)] {
            let built = try runCommand([
                swiftc, "-emit-module", "-parse-as-library", "-module-name", module, "-I", folder.path,
                "-emit-module-path", folder.appendingPathComponent(module + ".swiftmodule").path, file.path,
            ])
            try #require(built.status == 0, "stand-in \(module): \(built.stderr)")
        }
        var paths: [String] = []
        for (name, text) in sources {
            let file = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            paths.append(file.path)
        }
        let run = try runCommand([swiftc, "-typecheck", "-parse-as-library", "-I", folder.path] + paths)
        return (run.status, run.stderr)
    }

    /// Lato's faces from the bundled fonts (its 800 is "Heavy", its regular italic "Lato-Italic":
    /// a `weightName(for:)` override) and a family whose names break the pattern (a
    /// `fontName(for:compatibleWith:)` override), emitted for `api`.
    static func emitted(_ api: IOSFontEmitter.API, prefix: String = "FontReg") throws -> [String: String] {
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [Fixtures.bundled]))
        let lato = registry.index.faces.filter { $0.family == "Lato" }
        try #require(lato.count > 10)
        var sources: [String: String] = [:]
        for style in [FontStyle.normal, .italic] {
            let faces = lato.filter { $0.italic == (style == .italic) }.map {
                AuditWiring.Face(record: $0, weights: [$0.weight], style: style)
            }
            let family = AuditWiring.Family(name: "Lato", registeredFamily: "Lato", faces: faces)
            let name = prefix + IOSFontEmitter.swiftTypeName("Lato", style: style)
            sources[name + ".swift"] = IOSFontEmitter.source(
                typeName: name, family: family, faces: faces, style: style, api: api)
        }
        // Text styles of both styles, one at an off-grid weight: `Typography` declarations.
        var styles: [AuditWiring.Style] = []
        for (name, weight, style) in [("text.body", 400, FontStyle.normal), ("text.quote", 450, .italic)] {
            let record = try #require(
                lato.first { $0.weight == (weight / 100) * 100 && $0.italic == (style == .italic) })
            var use = TypographyUse(
                familyStack: ["Lato"], weight: FontWeight(weight)!, style: style,
                origin: UseOrigin(file: "t.json", name: name))
            use.size = 16
            use.lineHeight = .pixels(24)
            styles.append(
                AuditWiring.Style(
                    use: use, className: AuditWiring.className(name), family: "Lato",
                    face: AuditWiring.Face(record: record, weights: [weight], style: style),
                    layout: try LayoutAnswer(face: record, size: 16, lineHeight: .pixels(24))))
        }
        let typography = IOSFontEmitter.typographySource(
            styles, options: IOSFontEmitter.Options(api: api, prefix: prefix))
        try #require(typography != nil)
        sources[prefix + "Typography.swift"] = typography
        let odd = [("OddSans-Book", 400), ("OddSansBold", 700)].map { name, weight in
            AuditWiring.Face(
                record: FaceRecord(
                    postscriptName: name, family: "Odd Sans", subfamily: "", fullName: name, weight: weight,
                    italic: false, file: "/f/\(name).otf"),
                weights: [weight], style: .normal)
        }
        let family = AuditWiring.Family(name: "Odd Sans", registeredFamily: "Odd Sans", faces: odd)
        sources[prefix + "OddSansFontFamily.swift"] = IOSFontEmitter.source(
            typeName: prefix + "OddSansFontFamily", family: family, faces: odd, style: .normal, api: api)
        return sources
    }

    @Test(arguments: IOSFontEmitter.API.allCases)
    func theEmittedSwiftTypeChecksAgainstItsYMatterTypeRelease(api: IOSFontEmitter.API) throws {
        let sources = try Self.emitted(api)
        #expect(sources["FontRegLatoFontFamily.swift"]?.contains("func weightName(for weight") == true)
        #expect(sources["FontRegOddSansFontFamily.swift"]?.contains("func fontName(for weight") == true)
        #expect(sources["FontRegTypography.swift"]?.contains("fontFamily: FontRegLatoItalicFontFamily()") == true)
        let run = try Self.typecheck(sources, api: api)
        #expect(run.status == 0, "\(api): \(run.stderr)")
    }

    @Test func eachReleasesSwiftFailsAgainstTheOtherSoTheCheckCanFail() throws {
        let one = try Self.typecheck(try Self.emitted(.ymattertype1), api: .ymattertype2)
        #expect(one.status != 0)
        let two = try Self.typecheck(try Self.emitted(.ymattertype2), api: .ymattertype1)
        #expect(two.status != 0)
    }

    @Test func thePrefixKeepsEmittedTypesClearOfTheAppsOwnAndTheAppsTypeStillCompiles() throws {
        var sources = try Self.emitted(.ymattertype2, prefix: "Brand")
        #expect(sources["BrandLatoFontFamily.swift"]?.contains("struct BrandLatoFontFamily: FontFamily") == true)
        // The app's own type of the unprefixed name, beside the emitted ones: no redeclaration.
        sources["App.swift"] =
            "import YMatterType\nstruct LatoFontFamily: FontFamily { let familyName = \"Lato\"; var supportedWeights: [Typography.FontWeight] { [.regular] } }\n"
        let run = try Self.typecheck(sources, api: .ymattertype2)
        #expect(run.status == 0, "\(run.stderr)")
    }
}

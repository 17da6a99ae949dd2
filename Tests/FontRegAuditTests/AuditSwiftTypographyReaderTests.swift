import FontRegTestSupport
import Testing

@testable import FontRegAudit
@testable import FontRegCore
@testable import FontRegJSON

@Suite struct AuditSwiftTypographyReaderTests {
    static func styles() throws -> [String: TypographyUse] {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("swift/DesignSystem"))
        #expect(document.format == .swift)
        return Dictionary(uniqueKeysWithValues: document.uses.map { ($0.origin.name, $0) })
    }

    @Test func declarationsInExtensionsAndNestedNamespacesAreFound() throws {
        let styles = try Self.styles()
        #expect(
            Set(styles.keys) == [
                "Typography.largeTitle", "Typography.headline", "Typography.headlineBold", "Typography.title",
                "Typography.quote", "Typography.caption", "Typography.systemBody", "Typography.Label.large",
                "Typography.Label.largeMedium", "Typography.Label.small",
            ])
        #expect(styles["Typography.largeTitle"]?.familyStack == ["FixtureSans"])
        #expect(styles["Typography.largeTitle"]?.weight.value == 600)
        #expect(styles["Typography.largeTitle"]?.origin.position?.line == 6)
    }

    @Test func sizesAndLineHeightsAreReadAndDerivedStylesKeepThem() throws {
        let styles = try Self.styles()
        #expect(styles["Typography.largeTitle"]?.size == 32)
        #expect(styles["Typography.largeTitle"]?.lineHeight == .pixels(36))
        #expect(styles["Typography.title"]?.size == 28)
        #expect(styles["Typography.title"]?.lineHeight == .pixels(34))
        #expect(styles["Typography.headlineBold"]?.size == styles["Typography.headline"]?.size)
        #expect(styles["Typography.headline"]?.lineHeight == .pixels(22))
    }

    @Test func commentedOutDeclarationsAreIgnored() throws {
        #expect(!(try Self.styles()).values.contains { $0.familyStack == ["Gone Sans"] })
    }

    @Test func derivedStylesApplyTheirMutators() throws {
        let styles = try Self.styles()
        #expect(styles["Typography.headlineBold"]?.weight.value == 700)
        #expect(styles["Typography.headlineBold"]?.familyStack == ["NotoFixture"])
        #expect(styles["Typography.Label.largeMedium"]?.weight.value == 500)
        #expect(styles["Typography.Label.small"]?.weight.value == 400)
    }

    @Test func heavyIsApples800() throws {
        #expect(try Self.styles()["Typography.title"]?.weight.value == 800)
    }

    @Test func customFontFamilyGivesNameAndSupportedWeights() throws {
        let headline = try #require(try Self.styles()["Typography.headline"])
        #expect(headline.familyStack == ["NotoFixture"])
        #expect(headline.supportedWeights?.map(\.value) == [400, 700])
    }

    @Test func italicComesFromFontStyleOrFromTheFamily() throws {
        let styles = try Self.styles()
        #expect(styles["Typography.caption"]?.style == .italic)
        #expect(styles["Typography.quote"]?.style == .italic)
        #expect(styles["Typography.quote"]?.weight.value == 300)
        #expect(styles["Typography.largeTitle"]?.style == .normal)
    }

    @Test func systemFamilyIsAGenericName() throws {
        let system = try #require(try Self.styles()["Typography.systemBody"])
        #expect(FamilyStack(system.familyStack).primary == nil)
    }

    @Test(arguments: [
        ("thin", 100), ("ultralight", 200), ("light", 300), ("semibold", 600), ("heavy", 800), ("black", 900),
    ])
    func appleWeightNamesFollowOpenTypeOrder(name: String, weight: Int) throws {
        let source =
            "extension Typography { static let t = Typography(familyName: \"F\", fontWeight: .\(name), fontSize: 1, lineHeight: 1) }"
        let document = try SwiftTypographyReader.read(sources: [("T.swift", source)])
        #expect(document.uses.map(\.weight.value) == [weight])
    }

    @Test func unknownWeightCaseIsRejectedWithAppleNames() {
        let source =
            "extension Typography {\n    static let t = Typography(familyName: \"F\", fontWeight: .extraBold, fontSize: 1, lineHeight: 1)\n}\n"
        do {
            _ = try SwiftTypographyReader.read(sources: [("T.swift", source)])
            Issue.record(".extraBold was accepted")
        } catch {
            guard case .unknownWeight(let file, _, let value, let position, let accepted) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(file == "T.swift")
            #expect(value == ".extraBold")
            #expect(position == SourcePosition(line: 2, column: 61, offset: position?.offset ?? 0))
            #expect(accepted.contains(".heavy (800)"))
        }
    }

    @Test func circularDerivationNamesTheChain() {
        let source = """
            extension Typography {
                static let a = b.bold
                static let b = a.regular
            }
            """
        do {
            _ = try SwiftTypographyReader.read(sources: [("T.swift", source)])
            Issue.record("a circular derivation was accepted")
        } catch {
            guard case .circularReference(_, let chain, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(chain == ["Typography.a", "Typography.b", "Typography.a"])
        }
    }

    @Test func unknownFontFamilyIsAnErrorThatSaysWhatToPass() {
        let source =
            "extension Typography { static let t = Typography(fontFamily: .nowhere, fontWeight: .regular, fontSize: 1, lineHeight: 1) }"
        do {
            _ = try SwiftTypographyReader.read(sources: [("T.swift", source)])
            Issue.record("an unknown family was accepted")
        } catch {
            #expect(error.description.contains("nowhere"))
            #expect(error.description.contains("pass the Swift file that declares it"))
        }
    }

    @Test func stringsAndCommentsDoNotConfuseTheScanner() throws {
        let source = #"""
            let note = "Typography(familyName: \"Nope\", fontWeight: .bold)" /* Typography( */
            let raw = #"a "quoted" } brace"#
            let multi = """
                static let x = Typography(familyName: "Nope", fontWeight: .thin)
                """
            extension Typography { static let real = Typography(familyName: "Yes", fontWeight: .medium, fontSize: 1, lineHeight: 1) }
            """#
        let document = try SwiftTypographyReader.read(sources: [("T.swift", source)])
        #expect(document.uses.map(\.familyStack) == [["Yes"]])
        #expect(document.uses.map(\.weight.value) == [500])
    }

    @Test func unrelatedAppCodeIsIgnoredAndNonLiteralCallsAreNoted() throws {
        let source = """
            import UIKit
            struct Theme {
                static let tint: UIColor = .systemBlue
                static let spacing = base + 4
                let label = UILabel()
                static func body(weight: Typography.FontWeight) -> Typography {
                    Typography(familyName: "F", fontWeight: weight, fontSize: 1, lineHeight: 1)
                }
            }
            extension Typography { static let used = Typography(familyName: "F", fontWeight: .bold, fontSize: 1, lineHeight: 1) }
            """
        let document = try SwiftTypographyReader.read(sources: [("Theme.swift", source)])
        #expect(document.uses.map(\.weight.value) == [700])
        #expect(document.notes.contains { $0.hasPrefix("Theme.swift:7:") && $0.contains("not a literal") })
    }

    @Test func computedPropertiesAndImplicitInitAreRead() throws {
        let source = """
            extension Typography {
                static var body: Typography {
                    Typography(familyName: "F", fontWeight: .medium, fontSize: 1, lineHeight: 1)
                }
                static var strong: Typography { return body.bold }
                static let small: Typography = .init(familyName: "F", fontWeight: .light, fontSize: 1, lineHeight: 1)
                static let tiny = Typography.init(familyName: "F", fontWeight: .thin, fontSize: 1, lineHeight: 1)
            }
            """
        let document = try SwiftTypographyReader.read(sources: [("T.swift", source)])
        let weights = Dictionary(uniqueKeysWithValues: document.uses.map { ($0.origin.name, $0.weight.value) })
        #expect(
            weights == [
                "Typography.body": 500, "Typography.strong": 700, "Typography.small": 300, "Typography.tiny": 100,
            ])
    }
}

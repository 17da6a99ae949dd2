import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore
@testable import FontRegJSON

@Suite struct AuditDTCGReaderTests {
    static let file = AuditFixtures.tokens("dtcg/design-system.tokens.json")

    static func styles(includeDeprecated: Bool = false) throws -> [String: TypographyUse] {
        let document = try TypographyReader.read(path: file, includeDeprecated: includeDeprecated)
        #expect(document.format == .dtcg)
        return Dictionary(uniqueKeysWithValues: document.uses.map { ($0.origin.name, $0) })
    }

    @Test func everyTypographyTokenIsATextStyleExceptDeprecatedOnes() throws {
        let styles = try Self.styles()
        #expect(
            Set(styles.keys) == [
                "typography.body", "typography.body-copy", "typography.caption", "typography.heading.large.desktop",
                "typography.heading.large.mobile", "typography.badge", "typography.hero", "typography.quote",
                "typography.display", "typography.native-label",
            ])
    }

    @Test func deprecatedGroupIsCountedOnlyWhenAsked() throws {
        let document = try TypographyReader.read(path: Self.file)
        #expect(
            document.notes.contains { $0.contains("typography.legacy.banner") && $0.contains("--include-deprecated") })
        let styles = try Self.styles(includeDeprecated: true)
        #expect(styles["typography.legacy.banner"]?.weight.value == 900)
    }

    @Test func referenceChainsAreFollowedToTheEnd() throws {
        let styles = try Self.styles()
        // emphasis → strong → bold → "bold"
        #expect(styles["typography.heading.large.desktop"]?.weight.value == 700)
        #expect(styles["typography.body"]?.weight.value == 400)
    }

    @Test func aliasOfAWholeTextStyleCopiesIt() throws {
        let styles = try Self.styles()
        #expect(styles["typography.body-copy"]?.weight.value == 400)
        #expect(styles["typography.body-copy"]?.familyStack == ["Fixture Sans", "-apple-system", "sans-serif"])
    }

    @Test func jsonPointerRefIntoATokenValueIsFollowed() throws {
        #expect(try Self.styles()["typography.caption"]?.weight.value == 500)
    }

    @Test func breakpointVariantsCountSeparately() throws {
        let styles = try Self.styles()
        #expect(styles["typography.heading.large.mobile"]?.weight.value == 600)
        #expect(styles["typography.heading.large.desktop"]?.weight.value == 700)
    }

    @Test func offGridWeightsAnd950AreKeptAsWritten() throws {
        let styles = try Self.styles()
        #expect(styles["typography.badge"]?.weight.value == 450)
        #expect(styles["typography.display"]?.weight.value == 653)
        #expect(styles["typography.hero"]?.weight.value == 950)
    }

    @Test func fontStyleAndStacksAreRead() throws {
        let styles = try Self.styles()
        #expect(styles["typography.quote"]?.style == .italic)
        #expect(styles["typography.quote"]?.familyStack == ["Noto Fixture, serif"])
        #expect(FamilyStack(styles["typography.quote"]!.familyStack).primary == "Noto Fixture")
    }

    @Test func paletteWeightsNoStyleUsesAreNotedNotCounted() throws {
        let document = try TypographyReader.read(path: Self.file)
        #expect(!document.uses.contains { $0.weight.value == 100 })
        let note = try #require(document.notes.first { $0.contains("used by no text style") })
        #expect(note.contains("font.weight.thin"))
        #expect(!note.contains("font.weight.bold"))
    }

    @Test func circularReferenceNamesTheChainAndPosition() {
        let file = AuditFixtures.tokens("errors/circular.tokens.json")
        do {
            _ = try TypographyReader.read(path: file)
            Issue.record("a circular chain was accepted")
        } catch {
            guard case .circularReference(_, let chain, let position) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(
                chain == [
                    "typography.title", "font.weight.strong", "font.weight.emphasis", "font.weight.loud",
                    "font.weight.strong",
                ])
            #expect(position?.line == 7)
            #expect(
                error.description.contains(
                    "font.weight.strong → font.weight.emphasis → font.weight.loud → font.weight.strong"))
        }
    }

    @Test func brokenReferenceNamesTheTokenPath() {
        do {
            _ = try TypographyReader.read(path: AuditFixtures.tokens("errors/broken-reference.tokens.json"))
            Issue.record("a broken reference was accepted")
        } catch {
            guard case .brokenReference(_, let path, let reference, let position) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(path == "typography.title")
            #expect(reference == "{font.weight.heavyweight}")
            #expect(position?.line == 5)
        }
    }

    @Test func caseVariantOfADTCGWeightIsRejectedWithTheAcceptedNames() {
        do {
            _ = try TypographyReader.read(path: AuditFixtures.tokens("errors/case-variant-weight.tokens.json"))
            Issue.record("\"Bold\" was accepted in DTCG")
        } catch {
            guard case .unknownWeight(_, let location, let value, _, let accepted) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(location == "typography.title.fontWeight")
            #expect(value == "Bold")
            #expect(accepted.contains("bold (700)"))
            #expect(accepted.contains("extra-black (950)"))
            #expect(error.description.contains("semi-bold (600)"))
        }
    }

    @Test(arguments: [
        ("heavy", 900), ("extra-black", 950), ("ultra-black", 950), ("book", 400), ("demi-bold", 600),
        ("hairline", 100),
    ])
    func dtcgWeightNamesHaveTheirW3CValues(name: String, weight: Int) throws {
        let text = #"{"t": {"$type": "typography", "$value": {"fontFamily": "F", "fontWeight": "\#(name)"}}}"#
        let document = try TypographyReader.read(json: text, file: "inline.json")
        #expect(document.uses.first?.weight.value == weight)
    }

    @Test(arguments: ["semibold", "Bold", "BLACK", "extra bold", "400"])
    func namesOutsideTheDTCGListAreRejected(name: String) {
        let text = #"{"t": {"$type": "typography", "$value": {"fontFamily": "F", "fontWeight": "\#(name)"}}}"#
        #expect(throws: AuditInputError.self) { try TypographyReader.read(json: text, file: "inline.json") }
    }

    @Test func malformedJSONReportsFileLineAndColumn() {
        let file = AuditFixtures.tokens("errors/missing-comma.tokens.json")
        do {
            _ = try TypographyReader.read(path: file)
            Issue.record("malformed JSON was accepted")
        } catch {
            #expect(error.description.hasPrefix("\(file):5:48: "), "\(error)")
            #expect(error.description.contains("missing comma"))
        }
    }

    @Test func fractionalWeightIsRejected() {
        let text = #"{"t": {"$type": "typography", "$value": {"fontFamily": "F", "fontWeight": 450.5}}}"#
        #expect(throws: AuditInputError.self) { try TypographyReader.read(json: text, file: "inline.json") }
    }

    @Test func formatIsDetectedFromContent() throws {
        func detect(_ path: String) throws -> AuditInputFormat? {
            AuditInputFormat.detect(
                json: try SourceJSONParser.parse(String(contentsOfFile: AuditFixtures.tokens(path), encoding: .utf8)))
        }
        #expect(try detect("dtcg/design-system.tokens.json") == .dtcg)
        #expect(try detect("tokens-studio/figma-tokens.json") == .tokensStudio)
        #expect(try detect("native/text-styles.json") == .native)
        #expect(AuditInputFormat.detect(json: try SourceJSONParser.parse(#"{"a": 1}"#)) == nil)
    }

    @Test func untypedAliasTakesTheTypeOfWhatItRefersTo() throws {
        let text = #"""
            {"styles": {"base": {"$type": "typography", "$value": {"fontFamily": "F", "fontWeight": 300}}},
             "app": {"title": {"$value": "{styles.base}"}, "note": {"$value": "plain text"}}}
            """#
        let document = try TypographyReader.read(json: text, file: "t.json")
        #expect(document.uses.map(\.origin.name) == ["styles.base", "app.title"])
        #expect(document.uses.map(\.weight.value) == [300, 300])
    }

    @Test func rootTokenOfAGroupIsATextStyle() throws {
        let text = #"""
            {"heading": {"$type": "typography",
              "$root": {"$value": {"fontFamily": "F", "fontWeight": 600}},
              "small": {"$value": {"fontFamily": "F", "fontWeight": "{heading.$root.fontWeight}"}}}}
            """#
        let document = try TypographyReader.read(json: text, file: "t.json")
        #expect(document.uses.map(\.origin.name) == ["heading.$root", "heading.small"])
        #expect(document.uses.map(\.weight.value) == [600, 600])
    }
}

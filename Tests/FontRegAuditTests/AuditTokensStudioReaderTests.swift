import FontRegTestSupport
import Testing

@testable import FontRegAudit
@testable import FontRegCore
@testable import FontRegJSON

@Suite struct AuditTokensStudioReaderTests {
    @Test(arguments: [
        ("Regular", 400, FontStyle.normal), ("Bold Italic", 700, .italic), ("ExtraBold Italic", 800, .italic),
        ("Semi Bold", 600, .normal), ("Semibold", 600, .normal), ("Demi Bold", 600, .normal),
        ("Italic", 400, .italic), ("Light normal", 300, .normal), ("Ultra Light", 200, .normal),
        ("BoldItalic", 700, .italic), ("Heavy", 900, .normal), ("700", 700, .normal),
        ("leicht", 300, .normal), ("buch", 400, .normal), ("kräftig", 500, .normal), ("halbfett", 600, .normal),
        ("fett", 800, .normal), ("extrafett", 900, .normal),
    ])
    func figmaWeightNamesSplitIntoWeightAndStyle(name: String, weight: Int, style: FontStyle) throws {
        let parsed = try #require(WeightVocabulary.studioWeight(name))
        #expect(parsed.weight.value == weight)
        #expect(parsed.style == style)
    }

    @Test func unknownFigmaWeightIsRejectedWithAcceptedNames() {
        let text = #"{"t": {"value": {"fontFamily": "F", "fontWeight": "Chunky"}, "type": "typography"}}"#
        do {
            _ = try TypographyReader.read(json: text, file: "studio.json")
            Issue.record("\"Chunky\" was accepted")
        } catch {
            guard case .unknownWeight(let file, _, let value, let position, let accepted) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(file == "studio.json")
            #expect(value == "Chunky")
            #expect(position?.column == 51)
            #expect(accepted.contains("Semi Bold"))
        }
    }

    @Test func bothKeySpellingsAndReferencesAcrossTokenSetsAreRead() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("tokens-studio/figma-tokens.json"))
        #expect(document.format == .tokensStudio)
        let styles = Dictionary(uniqueKeysWithValues: document.uses.map { ($0.origin.name, $0) })
        #expect(styles.count == 6)
        #expect(styles["global.typography.body"]?.weight.value == 400)  // value/type
        #expect(styles["global.typography.aside"]?.style == .italic)  // $value/$type, bare "Italic"
        #expect(styles["global.typography.aside"]?.weight.value == 400)
        #expect(styles["global.typography.emphasis"]?.weight.value == 700)
        #expect(styles["global.typography.emphasis"]?.style == .italic)
        #expect(styles["global.typography.poster"]?.weight.value == 900)  // Heavy is 900 in Tokens Studio
        // A reference from the "mobile" set to a token of the "global" set.
        #expect(styles["mobile.typography.heading"]?.familyStack == ["Noto Fixture"])
        #expect(styles["mobile.typography.heading"]?.weight.value == 600)
        #expect(document.notes.contains { $0.contains("global.fontWeights.unused") })
    }

    @Test func dollarSpelledStudioFileNeedsTheFormatOptionAndTheErrorSaysSo() throws {
        let text =
            #"{"type": {"h1": {"$type": "typography", "$value": {"fontFamily": "F", "fontWeight": "Semi Bold"}}}}"#
        // Read as DTCG (the guess), a Figma name is not on the closed list; the message names the way out.
        do {
            _ = try TypographyReader.read(json: text, file: "studio.json")
            Issue.record("a Figma name was accepted as DTCG")
        } catch {
            #expect(error.description.contains("pass --format tokens-studio"))
        }
        let document = try TypographyReader.read(json: text, file: "studio.json", format: .tokensStudio)
        #expect(document.uses.map(\.weight.value) == [600])
    }
}

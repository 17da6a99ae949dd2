import FontRegTestSupport
import Testing

@testable import FontRegAudit
@testable import FontRegCore

/// Figma Variables and the native list give a text style its size and line height (issue 27's
/// layout values need both), as the token, Swift and CSS readers do.
@Suite struct AuditStyleLineBoxReaderTests {
    @Test func figmaSizeAndLineHeightVariablesGiveEachModeItsLineBox() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("figma-variables/line-boxes.json"))
        #expect(document.format == .figmaVariables)
        let described = document.uses.map {
            "\($0.origin.name): \($0.familyStack[0]) \($0.weight.value) \($0.size.map { "\($0)" } ?? "-") "
                + "\($0.lineHeight?.description ?? "-")"
        }
        #expect(described == ["body: Lato 400 16.0 24px", "body (2:1): Lato 400 16.0 28px"])
    }

    @Test func figmaLineHeightOfTheWrongKindNamesTheVariable() {
        let json = #"""
            {"meta": {"variableCollections": {"C": {}}, "variables": {
              "a": {"name": "body/family", "valuesByMode": {"m": "Lato"}, "scopes": ["FONT_FAMILY"]},
              "b": {"name": "body/line-height", "valuesByMode": {"m": true}, "scopes": ["LINE_HEIGHT"]}}}}
            """#
        do {
            _ = try TypographyReader.read(json: json, file: "v.json")
            Issue.record("a boolean line height was accepted")
        } catch {
            #expect(error.description.contains("body/line-height"), "\(error)")
            #expect(error.description.contains("line height must be"), "\(error)")
        }
    }

    @Test func nativeListReadsSizeAndEveryLineHeightForm() throws {
        let json = #"""
            {"textStyles": [
              {"name": "body", "family": "Lato", "weight": 400, "size": 16, "lineHeight": "24px"},
              {"name": "lead", "family": "Lato", "weight": 400, "size": "1.25rem", "lineHeight": 1.5},
              {"name": "caption", "family": "Lato", "weight": 400, "size": "12px", "lineHeight": "150%"},
              {"name": "plain", "family": "Lato", "weight": 400}]}
            """#
        let uses = try TypographyReader.read(json: json, file: "n.json").uses
        #expect(uses.map(\.size) == [16, 20, 12, nil])
        #expect(uses.map(\.lineHeight) == [.pixels(24), .multiple(1.5), .percent(150), nil])
    }

    @Test(arguments: [
        (#""size": "1em""#, "body.size"), (#""size": -4"#, "body.size"),
        (#""lineHeight": "normal""#, "body.lineHeight"),
    ])
    func nativeValueOfAnotherFormIsAnErrorNamingTheStyle(member: String, location: String) {
        let json = #"{"textStyles": [{"name": "body", "family": "Lato", "weight": 400, "# + member + "}]}"
        do {
            _ = try TypographyReader.read(json: json, file: "n.json")
            Issue.record("accepted \(member)")
        } catch {
            #expect(error.description.contains(location), "\(error)")
        }
    }

    @Test func nativeStylesWithALineBoxGetTheirLayoutAnswer() throws {
        let json =
            #"{"textStyles": [{"name": "body", "family": "Lato", "weight": 400, "size": 16, "lineHeight": "24px"}]}"#
        let documents = [try TypographyReader.read(json: json, file: "n.json")]
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: AuditFixtures.bundledFontDirectories))
        let report = Auditor().audit(documents, faces: registry.index.faces)
        let wiring = AuditWiring(report: report, faces: registry.index.faces, uses: documents.flatMap(\.uses))
        let style = try #require(wiring.styles.first)
        #expect(style.className == "body")
        #expect(style.layout?.lineHeight == 24)
    }
}

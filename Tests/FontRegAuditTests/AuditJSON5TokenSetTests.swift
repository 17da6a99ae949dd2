import FontRegTestSupport
import Testing

@testable import FontRegAudit
@testable import FontRegCore
@testable import FontRegJSON

/// Token sets as design systems keep them: JSON5 spread over files whose references cross files.
@Suite struct AuditJSON5TokenSetTests {
    static let primer = AuditFixtures.tokens("json5/primer")

    @Test func json5FeaturesParseWithPositions() throws {
        let text = """
            // comment
            { unquoted: 'single', "double": "x", /* block */ trailing: [1, 2,], hex: 0x1F, half: .5, plus: +3,
              nested: { $value: 600, }, }
            """
        let root = try SourceJSONParser.parse(text, file: "t.json5", dialect: .json5)
        #expect(root["unquoted"]?.stringValue == "single")
        #expect(root["trailing"]?.arrayValue?.count == 2)
        #expect(root["hex"]?.intValue == 31)
        #expect(root["half"]?.doubleValue == 0.5)
        #expect(root["plus"]?.intValue == 3)
        #expect(root["nested"]?["$value"]?.intValue == 600)
        let key = try #require(root.members?.first(where: { $0.key == "nested" }))
        #expect(key.keyPosition.line == 3 && key.keyPosition.column == 3)
    }

    @Test func json5ErrorsNameLineAndColumn() {
        #expect(throws: SourceJSONError.self) {
            try SourceJSONParser.parse("{ a: 1\n  b: 2 }", file: "t.json5", dialect: .json5)
        }
        do {
            _ = try SourceJSONParser.parse("{ a: 1\n  b: 2 }", file: "t.json5", dialect: .json5)
        } catch {
            #expect(error.description.hasPrefix("t.json5:2:3: unexpected 'b'; expected ',' or '}'"))
        }
    }

    @Test func strictJSONErrorsStayTheStrictParsersForJSONFiles() {
        #expect(throws: AuditInputError.self) {
            try TypographyReader.read(path: AuditFixtures.tokens("errors/missing-comma.tokens.json"))
        }
        do {
            _ = try TypographyReader.read(path: AuditFixtures.tokens("errors/missing-comma.tokens.json"))
        } catch {
            #expect(error.description.contains("missing-comma.tokens.json:5:48"))
        }
    }

    @Test func folderOfJSON5FilesMergesAndResolvesReferencesAcrossFiles() throws {
        let documents = try TypographyReader.read(paths: [Self.primer])
        #expect(documents.count == 1)
        let styles = Dictionary(uniqueKeysWithValues: documents[0].uses.map { ($0.origin.name, $0) })
        #expect(Set(styles.keys) == ["text.title.large", "text.body.medium", "text.quote"])
        #expect(styles["text.title.large"]?.weight.value == 600)
        #expect(FamilyStack(styles["text.title.large"]!.familyStack).primary == "Fixture Sans")
        #expect(styles["text.quote"]?.style == .italic)
        // The origin is the file that declares the style.
        #expect(styles["text.quote"]?.origin.file.hasSuffix("primer/typography.json5") == true)
    }

    @Test func globSelectsTheSameFilesAsTheFolder() throws {
        let viaGlob = try TypographyReader.read(paths: [Self.primer + "/*.json5"])
        let viaFolder = try TypographyReader.read(paths: [Self.primer])
        #expect(viaGlob.flatMap(\.uses) == viaFolder.flatMap(\.uses))
        let recursive = try TypographyReader.read(paths: [AuditFixtures.tokens("json5") + "/**/primer/*.json5"])
        #expect(recursive.flatMap(\.uses) == viaFolder.flatMap(\.uses))
    }

    @Test func referenceMissingFromEveryFileNamesFileLineAndColumn() {
        let folder = AuditFixtures.tokens("json5/broken")
        do {
            _ = try TypographyReader.read(paths: [folder])
            Issue.record("a broken reference must fail")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "\(folder)/typography.json5:5:66: token text.title refers to {base.text.weight.bold}"),
                "\(error)")
        }
    }

    @Test func oneFileAloneCannotResolveTheOthersReferences() {
        #expect(throws: AuditInputError.self) {
            try TypographyReader.read(paths: [Self.primer + "/typography.json5"])
        }
    }

    @Test func mergedSetAuditsAgainstTheFixtureFonts() throws {
        let documents = try TypographyReader.read(paths: [Self.primer])
        let report = Auditor().audit(documents, faces: AuditFixtures.fixtureIndex.faces)
        let serif = try #require(report.families.first { $0.family == "Noto Fixture" })
        #expect(serif.styles.first { $0.style == "italic" }?.missing.map(\.weight) == [500])
        #expect(!report.complete)
    }

    @Test func figmaVariablesGroupsBecomeTextStylesPerMode() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("figma-variables/variables.json"))
        #expect(document.format == .figmaVariables)
        let described = document.uses.map {
            "\($0.origin.name): \($0.familyStack[0]) \($0.weight.value) \($0.style.rawValue)"
        }
        #expect(
            described == [
                "heading.large: Fixture Sans 600 normal", "heading.large (1:1): Noto Fixture 600 normal",
                "body: Fixture Sans 500 italic",
            ])
        #expect(document.uses[0].origin.position?.line == 19)
    }
}

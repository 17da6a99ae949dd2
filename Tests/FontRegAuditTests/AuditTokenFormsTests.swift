import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore
@testable import FontRegJSON

/// The Tokens Studio sync folder, styles assembled from sibling tokens, `$schema`-typed and `value`
/// tokens, and the clear errors for token modules and unknown shapes.
@Suite struct AuditTokenFormsTests {
    static func styles(_ document: TypographyDocument) -> [String: TypographyUse] {
        Dictionary(document.uses.map { ($0.origin.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Tokens Studio sync folder

    @Test func syncFolderIsReadOncePerThemeWithSourceSetsForReferencesOnly() throws {
        let documents = try TypographyReader.read(paths: [AuditFixtures.tokens("tokens-studio-sync")])
        #expect(documents.count == 2)
        let names = documents.map(\.file)
        #expect(names[0].hasSuffix("tokens-studio-sync [theme Default]"))
        #expect(names[1].hasSuffix("tokens-studio-sync [theme Dense]"))
        let normal = Self.styles(documents[0])
        // Figma weight names: Black (typed `text`) 900, ExtraBold 800; Italic from an `other` token.
        #expect(normal["heading.h1 [theme Default]"]?.weight.value == 900)
        #expect(normal["heading.h2 [theme Default]"]?.weight.value == 800)
        #expect(normal["body [theme Default]"]?.style == .italic)
        #expect(normal["body [theme Default]"]?.familyStack == ["Inter"])
        // The `source` set's own style is not a text style, and its unused weight is not listed.
        #expect(!normal.keys.contains { $0.hasPrefix("typography.reference-only") })
        #expect(!documents[0].notes.contains { $0.contains("fontWeights.hairline") })
        #expect(documents[0].notes.first?.contains("for references only: core") == true)
        // The Dense theme enables a set that overrides ExtraBold with Bold.
        #expect(Self.styles(documents[1])["heading.h2 [theme Dense]"]?.weight.value == 700)
    }

    @Test func themeOptionPicksOneThemeAndAnUnknownThemeNamesTheThemes() throws {
        let folder = AuditFixtures.tokens("tokens-studio-sync")
        let documents = try TypographyReader.read(paths: [folder], theme: "Dense")
        #expect(documents.count == 1)
        #expect(documents[0].uses.allSatisfy { $0.origin.name.hasSuffix("[theme Dense]") })
        #expect(throws: AuditInputError.self) { try TypographyReader.read(paths: [folder], theme: "Dark") }
        do {
            _ = try TypographyReader.read(paths: [folder], theme: "Dark")
        } catch {
            #expect(error.description.contains(#"no theme named "Dark"; the themes are: "Default", "Dense""#))
        }
    }

    @Test func metadataFileGivenAloneStandsForItsSyncFolder() throws {
        let documents = try TypographyReader.read(paths: [AuditFixtures.tokens("tokens-studio-sync/$metadata.json")])
        #expect(documents.count == 2)
        #expect(documents.allSatisfy { !$0.uses.isEmpty })
    }

    @Test func themeSelectingAMissingSetIsAnErrorWithLineAndColumn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"[{"name": "Light", "selectedTokenSets": {"gone": "enabled"}}]"#.utf8)
            .write(to: folder.appendingPathComponent("$themes.json"))
        do {
            _ = try TypographyReader.read(paths: [folder.path])
            Issue.record("a missing set was accepted")
        } catch {
            #expect(error.description.contains("$themes.json:1:42: theme Light: the theme selects set \"gone\""))
        }
    }

    @Test func themesFileReadAsPlainJSONSaysWhatItIsAndWhatToPass() {
        do {
            _ = try TypographyReader.read(
                json: #"[{"id": "1", "name": "Light", "selectedTokenSets": {}}]"#, file: "$themes.json")
            Issue.record("a themes file was read as tokens")
        } catch {
            #expect(error.description.contains("array of Tokens Studio themes"))
            #expect(error.description.contains("pass the folder that holds it"))
        }
    }

    // MARK: Sibling tokens

    @Test func spectrumSiblingTokensAssembleIntoStylesWithTheNearestFamily() throws {
        let document = try TypographyReader.read(
            path: AuditFixtures.tokens("style-dictionary/spectrum-typography.json"))
        #expect(document.format == .styleDictionary)
        let styles = Self.styles(document)
        #expect(styles["heading-sans-serif"]?.familyStack == ["Adobe Clean Spectrum VF"])
        #expect(styles["heading-sans-serif"]?.weight.value == 800)
        #expect(styles["heading-serif"]?.familyStack == ["Adobe Clean Serif"])
        #expect(styles["heading-serif"]?.weight.value == 700)
        // No family of its own: the enclosing heading-sans-serif's.
        #expect(styles["heading-sans-serif-strong"]?.familyStack == ["Adobe Clean Spectrum VF"])
        #expect(styles["heading-sans-serif-strong"]?.weight.value == 900)
        #expect(
            styles["heading-sans-serif"]?.madeOf == [
                "font-family: heading-sans-serif-font-family", "font-weight: heading-sans-serif-font-weight",
                "font-style: heading-sans-serif-font-style",
            ])
    }

    @Test func weightsUsedBySiblingStylesAreNotListedAsUnused() throws {
        let document = try TypographyReader.read(
            path: AuditFixtures.tokens("style-dictionary/spectrum-typography.json"))
        let unused = try #require(document.notes.first { $0.contains("weights defined but used by no text style") })
        #expect(unused.contains("light-font-weight"))  // used only by a deprecated style
        for used in ["bold-font-weight", "extra-bold-font-weight", "black-font-weight", "regular-font-weight"] {
            #expect(!unused.contains(" \(used) ="), "\(used) is used")
        }
        #expect(!unused.contains("heading-"))
    }

    @Test func nestedGroupsAndCamelCaseSiblingsAssembleIntoStyles() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("siblings/nested-and-camel.tokens.json"))
        let styles = Self.styles(document)
        #expect(styles["typography.header.md.font-weight"]?.weight.value == 400)
        #expect(styles["typography.header.md.font-weight-bolder"]?.weight.value == 700)
        #expect(styles["typography.header.md.font-weight"]?.familyStack == ["Lato"])
        #expect(styles["caption"]?.familyStack == ["Inter", "sans-serif"])
        #expect(styles["caption"]?.weight.value == 700)
        #expect(styles["caption"]?.style == .italic)
        let unused = try #require(document.notes.first { $0.contains("used by no text style") })
        #expect(unused.contains("font.weight.thin"))
        #expect(!unused.contains("font.weight.bold"))
    }

    @Test(arguments: [
        ("heading-sans-serif-font-family", SiblingRoleCase.family, "heading-sans-serif"),
        ("headingFontWeight", .weight, "heading"), ("label_font_style", .style, "label"),
        ("typography.header.md.font-weight-bolder", .weight, "typography.header.md"),
        ("typography.body.family", .family, "typography.body"),
    ])
    func tokenNamesGiveTheirRoleAndStyleWhateverTheSeparator(path: String, role: SiblingRoleCase, stem: String) {
        let found = TokenTypographyReader.siblingRole(ofPath: path)
        #expect(found?.role.rawValue == role.rawValue)
        #expect(found?.stem.name == stem)
    }

    @Test(arguments: ["font-weight-bold", "bold-font-weight", "font.weight.bold", "font-family"])
    func paletteNamesAreNoStyleOfTheirOwn(path: String) {
        let found = TokenTypographyReader.siblingRole(ofPath: path)
        #expect(found == nil || found!.stem.enclosing.allSatisfy { !$0.words.isEmpty || !$0.group.isEmpty })
        if path.hasPrefix("font-") || path.hasPrefix("font.") { #expect(found == nil) }
    }

    // MARK: $schema, value/type, deprecated

    @Test func schemaURLNamesTheTokenTypeAndItsCompositeIsATextStyle() throws {
        #expect(
            TokenTree.schemaType("https://opensource.adobe.com/spectrum-tokens/schemas/token-types/font-weight.json")
                == "fontWeight")
        #expect(TokenTree.schemaType("typography.json") == "typography")
        #expect(TokenTree.schemaType("alias.json") == nil)
        let document = try TypographyReader.read(
            path: AuditFixtures.tokens("style-dictionary/spectrum-typography.json"))
        let detail = try #require(Self.styles(document)["detail-emphasized-typography"])
        #expect(detail.familyStack == ["Adobe Clean Serif"])
        #expect(detail.weight.value == 400)
        #expect(detail.style == .italic)
    }

    @Test func deprecatedWithoutDollarIsLeftOutUnlessIncluded() throws {
        let path = AuditFixtures.tokens("style-dictionary/spectrum-typography.json")
        let document = try TypographyReader.read(path: path)
        #expect(Self.styles(document)["heading-sans-serif-light"] == nil)
        #expect(document.notes.contains { $0.contains("heading-sans-serif-light-font-weight") })
        let included = try TypographyReader.read(path: path, includeDeprecated: true)
        #expect(Self.styles(included)["heading-sans-serif-light"]?.weight.value == 300)
    }

    @Test func styleDictionaryValueTypeCompositesAreTextStyles() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("style-dictionary/value-type.json"))
        let styles = Self.styles(document)
        #expect(styles["typography.title"]?.weight.value == 700)
        #expect(styles["typography.title"]?.familyStack == ["Lato"])
        #expect(styles["typography.old-caption"] == nil)
        #expect(document.notes.contains { $0.contains("typography.old-caption") })
    }

    // MARK: Modules and unknown shapes

    @Test func typeScriptModuleObjectLiteralsAreReadStaticallyWithDottedNamesAsReferences() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("modules/typography.ts"))
        #expect(document.format == .tokenModule)
        let styles = Self.styles(document)
        #expect(styles["typography.body"]?.weight.value == 400)
        #expect(FamilyStack(styles["typography.body"]?.familyStack ?? []).primary == "Inter")
        #expect(styles["typography.heading"]?.weight.value == 600)
        #expect(styles["typography.heading"]?.style == .italic)
        #expect(styles["typography.body"]?.origin.position?.line == 15)
        #expect(
            document.notes.contains { $0.contains("used by no text style") && $0.contains("fontWeights.black = 900") })
    }

    @Test func moduleThatIsNotPlainDataIsRefusedByNameWithTheOutputToPassInstead() {
        for path in [AuditFixtures.tokens("modules/computed.js"), AuditFixtures.tokens("modules")] {
            do {
                _ = try TypographyReader.read(paths: [path])
                Issue.record("\(path) was read")
            } catch {
                #expect(
                    error.description.contains(
                        "computed.js: a TypeScript/JavaScript module that is not plain data is not read by the audit"))
                #expect(error.description.contains("its export fontWeights is not a plain object literal (4:3:"))
                #expect(error.description.contains("pass the JSON the package builds"))
            }
        }
    }

    @Test func unknownJSONNamesWhatItLooksLike() {
        do {
            _ = try TypographyReader.read(json: ##"{"brand": {"primary": "#fff"}, "version": 2}"##, file: "x.json")
            Issue.record("read")
        } catch {
            #expect(error.description.contains("x.json: cannot tell the input format"))
            #expect(error.description.contains("an object with keys brand, version and no token in it"))
            #expect(error.description.contains("style-dictionary"))
        }
    }
}

/// The roles as test arguments (the reader's own enum is internal to the reader).
enum SiblingRoleCase: String, Sendable, CustomTestStringConvertible {
    case family = "font-family"
    case weight = "font-weight"
    case style = "font-style"

    var testDescription: String { rawValue }
}

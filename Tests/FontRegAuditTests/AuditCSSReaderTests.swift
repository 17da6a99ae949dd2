import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore
@testable import FontRegJSON

/// CSS as input: custom properties as tokens, rules setting a family as text styles.
@Suite struct AuditCSSReaderTests {
    static func read() throws -> TypographyDocument {
        let documents = try TypographyReader.read(paths: [AuditFixtures.tokens("css/typography.css")])
        return try #require(documents.first)
    }

    @Test func rulesSettingAFamilyAreTextStylesAndFontFaceBlocksAreNot() throws {
        let document = try Self.read()
        #expect(document.format == .css)
        let styles = Dictionary(uniqueKeysWithValues: document.uses.map { ($0.origin.name, $0) })
        #expect(Set(styles.keys) == ["body", ".caption", "h1 @media (min-width: 768px)", "heading"])
        #expect(styles["body"]?.familyStack == [#""Inter", -apple-system, sans-serif"#])
        #expect(styles["body"]?.weight.value == 400)
        #expect(styles["h1 @media (min-width: 768px)"]?.weight.value == 700)  // `bold`
        #expect(styles["body"]?.origin.position?.line == 19)
    }

    @Test func fontShorthandGivesStyleWeightAndFamily() throws {
        let caption = try #require(try Self.read().uses.first { $0.origin.name == ".caption" })
        #expect(caption.style == .italic)
        #expect(caption.weight.value == 500)
        #expect(FamilyStack(caption.familyStack).primary == "Inter")
        #expect(caption.size == 12)  // 0.75rem
        #expect(caption.lineHeight == .multiple(1.4))
    }

    @Test func fontSizeAndLineHeightLonghandsAndReferencesAreRead() throws {
        let file = AuditFixtures.temporaryDirectory().appendingPathComponent("styles.css")
        let css = """
            :root { --size-body: 15px; }
            .body { font-family: "Lato"; font-weight: 400; font-size: var(--size-body); line-height: 22px; }
            .lead { font: 600 20px / 150% "Lato"; }
            .wide { font-family: "Lato"; font-size: calc(1rem + 2vw); line-height: normal; }
            """
        try css.write(to: file, atomically: true, encoding: .utf8)
        let uses = try #require(try TypographyReader.read(paths: [file.path]).first).uses
        let byName = Dictionary(uniqueKeysWithValues: uses.map { ($0.origin.name, $0) })
        #expect(byName[".body"]?.size == 15)
        #expect(byName[".body"]?.lineHeight == .pixels(22))
        #expect(byName[".lead"]?.size == 20)
        #expect(byName[".lead"]?.lineHeight == .percent(150))
        #expect(byName[".wide"]?.size == nil)
        #expect(byName[".wide"]?.lineHeight == nil)
    }

    @Test func customPropertiesAssembleSiblingStylesAndUnusedWeightsAreListed() throws {
        let document = try Self.read()
        let heading = try #require(document.uses.first { $0.origin.name == "heading" })
        #expect(heading.familyStack == ["Lato, serif"])
        #expect(heading.weight.value == 600)
        #expect(heading.style == .italic)
        let unused = try #require(document.notes.first { $0.contains("used by no text style") })
        #expect(unused.contains("font-weight-black = 900"))
        #expect(!unused.contains("font-weight-semibold"))
        #expect(document.notes.contains { $0.contains("typography.css:25:3: strong: font-weight bolder is relative") })
    }

    @Test func unclosedBlockIsAnErrorAtTheLineAndColumnWhereItOpens() {
        do {
            _ = try CSSTypographyReader(file: "a.css", text: "body { color: red; }\n  h1 {\n  font-family: X;\n")
                .read(includeDeprecated: false)
            Issue.record("an unclosed block was accepted")
        } catch {
            #expect(error.description == "a.css:2:3: h1: the block opened here is never closed; add the missing }")
        }
    }
}

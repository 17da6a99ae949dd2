import FontRegTestSupport
import Testing

@testable import FontRegAudit
@testable import FontRegCore

@Suite struct AuditNativeStyleListReaderTests {
    @Test func readsStylesStacksAndNames() throws {
        let document = try TypographyReader.read(path: AuditFixtures.tokens("native/text-styles.json"))
        #expect(document.format == .native)
        #expect(document.uses.map(\.origin.name) == ["body", "body.strong", "code", "tab", "system"])
        #expect(document.uses.map(\.weight.value) == [400, 700, 400, 500, 400])
        #expect(document.uses[2].style == .italic)
        #expect(document.uses[1].familyStack == ["Noto Fixture", "serif"])
    }

    @Test func bareArrayAndHeavyAs800AreAccepted() throws {
        let document = try TypographyReader.read(json: #"[{"family": "F", "weight": "heavy"}]"#, file: "n.json")
        #expect(document.uses.map(\.weight.value) == [800])
        #expect(document.format == .native)
    }

    @Test func unknownWeightListsTheAcceptedNames() {
        do {
            _ = try TypographyReader.read(
                json: #"{"textStyles": [{"family": "F", "weight": "chonky"}]}"#, file: "n.json")
            Issue.record("accepted an unknown weight")
        } catch {
            #expect(error.description.contains("n.json:1:43"), "\(error)")
            #expect(error.description.contains("semibold"))
            #expect(error.description.contains("extrablack"))
        }
    }

    @Test func styleWithoutFamilySaysWhatToAdd() {
        #expect(throws: AuditInputError.self) {
            try TypographyReader.read(json: #"{"textStyles": [{"weight": 400}]}"#, file: "n.json")
        }
        do {
            _ = try TypographyReader.read(json: #"{"textStyles": [{"weight": 400}]}"#, file: "n.json", format: .native)
        } catch {
            #expect(error.description.contains("\"family\""))
        }
    }
}

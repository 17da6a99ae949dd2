import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore

/// The computation on hand-made faces, so each rule is checked alone.
@Suite struct AuditorTests {
    static func face(
        _ family: String, _ weight: Int, italic: Bool = false, bytes: Int64 = 1000, range: ClosedRange<Int>? = nil
    ) -> FaceRecord {
        let name =
            family.replacingOccurrences(of: " ", with: "")
            + "-\(weight)\(italic ? "Italic" : "")\(range == nil ? "" : "VF")"
        return FaceRecord(
            postscriptName: name, family: family, subfamily: italic ? "Italic" : "Regular", fullName: name,
            weight: weight, italic: italic, file: "/fonts/\(name).ttf", fileSize: bytes,
            axes: range.map {
                [
                    VariationAxis(
                        tag: "wght", minimum: Double($0.lowerBound), defaultValue: Double(weight),
                        maximum: Double($0.upperBound))
                ]
            } ?? [])
    }

    static func complete(_ family: String) -> [FaceRecord] {
        FontWeight.steps.map { face(family, $0.value) }
    }

    static func uses(_ family: [String], _ weights: [Int], style: FontStyle = .normal, supported: [Int]? = nil)
        -> TypographyDocument
    {
        TypographyDocument(
            file: "t.json", format: .native,
            uses: weights.map {
                TypographyUse(
                    familyStack: family, weight: FontWeight($0)!, style: style,
                    origin: UseOrigin(file: "t.json", name: "w\($0)"),
                    supportedWeights: supported?.map { FontWeight($0)! })
            })
    }

    static func audit(_ documents: [TypographyDocument], _ faces: [FaceRecord], policy: BoldTextPolicy = .nextHeavier)
        -> AuditReport
    {
        Auditor(configuration: .init(boldPolicy: policy)).audit(documents, faces: faces)
    }

    @Test func regularAndBoldRequireTheNextHeavierStepOfEach() throws {
        let report = Self.audit([Self.uses(["F"], [400, 700])], Self.complete("F"))
        let style = try #require(report.families.first?.styles.first)
        #expect(style.used == [400, 700])
        #expect(style.boldText == [500, 800])
        #expect(style.required == [400, 500, 700, 800])
        #expect(style.missing.isEmpty)
        #expect(report.complete)
    }

    @Test func blackStaysBlackUnderBoldText() throws {
        let style = try #require(Self.audit([Self.uses(["F"], [900])], Self.complete("F")).families.first?.styles.first)
        #expect(style.boldText == [900])
        #expect(style.required == [900])
        #expect(style.faces.first?.roles == ["used", "boldText"])
    }

    @Test func missingBoldTextWeightNamesTheFaceThatStandsInToday() throws {
        let faces = [Self.face("F", 400), Self.face("F", 700)]
        let report = Self.audit([Self.uses(["F"], [400])], faces)
        let style = try #require(report.families.first?.styles.first)
        #expect(style.required == [400, 500])
        let missing = try #require(style.missing.first)
        #expect(missing.weight == 500)
        #expect(missing.roles == ["boldText"])
        // CSS Fonts 4: for 500, heavier up to 500 first (none), then lighter: 400.
        #expect(missing.standIn?.postscriptName == "F-400")
        #expect(!report.complete)
        #expect(report.totals.missingFaces == 1)
    }

    @Test func filesNoRequiredWeightUsesAreListedWithTheirSize() throws {
        let faces = Self.complete("F") + [Self.face("F", 400, italic: true, bytes: 5000)]
        let report = Self.audit([Self.uses(["F"], [400])], faces)
        let family = try #require(report.families.first)
        let normal = family.styles.first { $0.style == "normal" }!
        #expect(normal.unneeded.map(\.weights) == [[100], [200], [300], [600], [700], [800], [900]])
        let italic = family.styles.first { $0.style == "italic" }!
        #expect(italic.used.isEmpty)
        #expect(italic.unneeded.map(\.bytes) == [5000])
        #expect(family.totals.unneededFiles == 8)
        #expect(family.totals.unneededBytes == 7 * 1000 + 5000)
        #expect(family.totals.shipFiles == 2)
        #expect(family.totals.shipBytes == 2000)
    }

    @Test func offGridWeightFallsToTheCSSStepWhenNoFaceCoversIt() throws {
        let style = try #require(
            Self.audit([Self.uses(["F"], [450, 653, 350])], Self.complete("F")).families.first?.styles.first)
        let plans = Dictionary(uniqueKeysWithValues: style.weights.map { ($0.used, $0) })
        #expect(plans[450]?.servedBy == 500)
        #expect(plans[450]?.boldTextServedBy == 600)
        #expect(plans[653]?.servedBy == 700)
        #expect(plans[653]?.boldTextServedBy == 800)
        #expect(plans[350]?.servedBy == 300)
        #expect(style.used == [350, 450, 653])
        #expect(style.required == [300, 400, 500, 600, 700, 800])
    }

    @Test func variableFaceServesAnOffGridWeightExactly() throws {
        let variable = Self.face("V", 400, range: 100...900)
        let style = try #require(Self.audit([Self.uses(["V"], [653])], [variable]).families.first?.styles.first)
        #expect(style.required == [653, 700])
        #expect(style.faces.map(\.variable) == [true, true])
        #expect(style.faces.map(\.file) == [variable.file, variable.file])
        #expect(style.missing.isEmpty)
    }

    @Test func weight950WithoutSuchFaceIsServedBy900AndBoldTextStaysThere() throws {
        let style = try #require(Self.audit([Self.uses(["F"], [950])], Self.complete("F")).families.first?.styles.first)
        #expect(style.weights.first?.servedBy == 900)
        #expect(style.weights.first?.boldText == 900)
        #expect(style.required == [900])
    }

    @Test func weight950WithAnExtraBlackFaceNeverGetsLighterUnderBoldText() throws {
        let faces = Self.complete("F") + [Self.face("F", 950)]
        let style = try #require(Self.audit([Self.uses(["F"], [950])], faces).families.first?.styles.first)
        #expect(style.weights.first?.servedBy == 950)
        #expect(style.weights.first?.boldText == 950)
        #expect(style.required == [950])
        #expect(style.faces.first?.postscriptName == "F-950")
    }

    @Test func declaredSupportedWeightsLimitBoldText() throws {
        let faces = [Self.face("F", 400), Self.face("F", 700)]
        let style = try #require(
            Self.audit([Self.uses(["F"], [400, 700], supported: [400, 700])], faces).families.first?.styles.first)
        #expect(style.boldText == [700])
        #expect(style.required == [400, 700])
        #expect(style.missing.isEmpty)
    }

    @Test(arguments: [
        (BoldTextPolicy.nextHeavier, 400, 500), (.iosSystem, 400, 600), (.iosSystem, 300, 400),
        (.cssBolder, 400, 700), (.cssBolder, 300, 400), (.android, 400, 700), (.android, 700, 900),
    ])
    func boldTextPolicyDecidesTheExtraWeight(policy: BoldTextPolicy, used: Int, bold: Int) throws {
        let style = try #require(
            Self.audit([Self.uses(["F"], [used])], Self.complete("F"), policy: policy).families.first?.styles.first)
        #expect(style.boldText == [bold])
    }

    @Test func genericNamesAreNotAuditableAndNeverMissing() throws {
        let report = Self.audit(
            [
                Self.uses(["F", "Helvetica Neue", "-apple-system", "sans-serif"], [400]),
                Self.uses(["system-ui"], [500]),
            ], Self.complete("F"))
        #expect(report.families.map(\.family) == ["F"])
        #expect(report.families.first?.fallbacks == ["Helvetica Neue"])
        #expect(report.notAuditable.map(\.name) == ["-apple-system", "sans-serif", "system-ui"])
        #expect(report.complete)
    }

    @Test func unregisteredFamilyIsMissingWithSuggestions() throws {
        let report = Auditor().audit(
            [Self.uses(["Intr"], [400])], faces: Self.complete("Inter"), suggestions: { _ in ["Inter"] })
        let family = try #require(report.families.first)
        #expect(family.registeredFamily == nil)
        #expect(family.suggestions == ["Inter"])
        #expect(family.styles.first?.missing.map(\.weight) == [400, 500])
        #expect(family.styles.first?.missing.first?.standIn == nil)
    }

    @Test func severalInputsAddUpAndSpellingsOfOneFamilyMerge() throws {
        let report = Self.audit(
            [Self.uses(["Noto Sans"], [400]), Self.uses(["NotoSans"], [700], style: .italic)],
            Self.complete("Noto Sans"))
        #expect(report.families.count == 1)
        #expect(report.families.first?.styles.map(\.style) == ["normal", "italic"])
        #expect(report.families.first?.styles.last?.required == [700, 800])
        #expect(report.inputs == ["t.json", "t.json"])
    }

    @Test func italicWithOnlyUprightFacesIsMissingAndTheUprightStandsIn() throws {
        let style = try #require(
            Self.audit([Self.uses(["F"], [400], style: .italic)], Self.complete("F")).families.first?.styles.first {
                $0.style == "italic"
            })
        #expect(style.missing.map(\.weight) == [400, 500])
        #expect(style.missing.first?.standIn?.style == "normal")
    }

    @Test func collectionFileShippedForOneFamilyIsNotDroppedForAnother() throws {
        var a = Self.face("A", 400)
        var b = Self.face("B", 700)
        a.file = "/fonts/shared.ttc"
        b.file = "/fonts/shared.ttc"
        b.index = 1
        let report = Self.audit([Self.uses(["A"], [400])], [a, b, Self.face("A", 500)])
        #expect(report.families.map(\.family) == ["A"])
        #expect(report.families.first?.styles.first?.unneeded.isEmpty == true)
        let withB = Self.audit([Self.uses(["A"], [400]), Self.uses(["B"], [400])], [a, b, Self.face("A", 500)])
        let familyB = try #require(withB.families.first { $0.family == "B" })
        #expect(familyB.styles.first?.unneeded.isEmpty == true)
        #expect(familyB.totals.unneededFiles == 0)
        #expect(withB.totals.unneededFiles == 0)
    }
}

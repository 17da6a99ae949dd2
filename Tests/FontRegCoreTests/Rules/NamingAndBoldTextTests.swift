import Testing

@testable import FontRegCore

/// The worked examples of `naming-rules.md` (default rule, family `F`) and the Bold Text policies.
@Suite struct NamingAndBoldTextTests {
    let rule = FamilyRule(family: "F", familyName: "F")
    let allNine = FontWeight.steps.map(\.value)

    @Test(arguments: [
        (400, false, false, "F-Regular"), (400, true, false, "F-RegularItalic"),
        (400, false, true, "F-Medium"), (400, true, true, "F-MediumItalic"),
        (600, false, false, "F-SemiBold"), (600, false, true, "F-Bold"),
        (700, false, false, "F-Bold"), (700, false, true, "F-ExtraBold"),
        (900, false, false, "F-Black"), (900, false, true, "F-Black"),
    ])
    func workedExamplesComposeTheDocumentedNames(weight: Int, italic: Bool, boldText: Bool, expected: String) {
        let effective = boldText ? BoldText.weight(for: weight, policy: .nextHeavier, supported: allNine) : weight
        #expect(rule.composedName(weight: effective, italic: italic) == expected)
    }

    @Test func emptyWeightNameGivesFamilyDashSuffixAndBothEmptyGiveTheBareFamily() {
        var neue = FamilyRule(family: "Helvetica Neue", familyName: "HelveticaNeue")
        neue.weightNames[400] = ""
        #expect(neue.composedName(weight: 400, italic: true) == "HelveticaNeue-Italic")
        #expect(neue.composedName(weight: 400, italic: false) == "HelveticaNeue")
        #expect(neue.composedName(weight: 700, italic: true) == "HelveticaNeue-BoldItalic")
        neue.italicSuffix = ""
        #expect(neue.composedName(weight: 400, italic: true) == "HelveticaNeue")
    }

    @Test func offGridWeightsHaveNoComposedName() {
        #expect(rule.composedName(weight: 450, italic: false) == nil)
        #expect(rule.composedName(weight: 950, italic: false) == nil)
    }

    @Test(arguments: [
        (100, 300), (200, 300), (300, 600), (400, 600), (500, 600), (600, 800), (700, 800), (800, 800), (900, 800),
    ])
    func nextHeavierWithSupportedLightSemiboldHeavyFollowsTheDocumentedTable(weight: Int, expected: Int) {
        #expect(BoldText.weight(for: weight, policy: .nextHeavier, supported: [300, 600, 800]) == expected)
    }

    @Test func nextHeavierWithAnEmptyListKeepsTheWeight() {
        #expect(BoldText.weight(for: 500, policy: .nextHeavier, supported: []) == 500)
    }

    @Test(arguments: [(100, 200), (300, 400), (400, 600), (600, 800), (700, 900), (800, 900), (900, 900), (950, 950)])
    func iosSystemAdds100Or200AndCapsAtBlack(weight: Int, expected: Int) {
        #expect(BoldText.weight(for: weight, policy: .iosSystem, supported: []) == expected)
    }

    @Test(arguments: [(400, 700), (800, 1000), (100, 400)])
    func androidAdds300ClampedTo1000(weight: Int, expected: Int) {
        #expect(BoldText.weight(for: weight, policy: .android, supported: []) == expected)
    }

    @Test(arguments: [(100, 400), (349, 400), (350, 700), (549, 700), (550, 900), (899, 900), (900, 900), (950, 950)])
    func cssBolderFollowsTheTable(weight: Int, expected: Int) {
        #expect(BoldText.weight(for: weight, policy: .cssBolder, supported: []) == expected)
    }

    @Test func aDesignSystemUsingRegularAndBoldNeedsMediumAndExtraBoldToo() {
        let needed = Set(
            [400, 700].flatMap { [$0, BoldText.weight(for: $0, policy: .nextHeavier, supported: allNine)] })
        #expect(needed == [400, 500, 700, 800])
    }

    @Test(arguments: ["next-heavier", "ios-system", "android", "css-bolder", "CSS_BOLDER", "bolder"])
    func policyNamesParse(name: String) {
        #expect(BoldTextPolicy(name: name) != nil)
    }
}

import Testing

@testable import FontRegCore

@Suite struct FontWeightTests {
    @Test(arguments: [
        ("thin", 100), ("Hairline", 100), ("extra-light", 200), ("UltraLight", 200), ("ultra_light", 200),
        ("light", 300), ("semilight", 350), ("Regular", 400), ("normal", 400), ("book", 400),
        ("medium", 500), ("SemiBold", 600), ("semi bold", 600), ("DemiBold", 600), ("bold", 700),
        ("ExtraBold", 800), ("ultra-bold", 800), ("black", 900), ("extra-black", 950), ("ultrablack", 950),
        ("450", 450), ("653", 653), ("1", 1), ("1000", 1000), ("600.0", 600),
    ])
    func namesAndNumbersParseToTheOpenTypeScale(text: String, expected: Int) {
        #expect(FontWeight(parsing: text)?.value == expected)
    }

    @Test func heavyIs800ForAppleAnd900ForW3C() {
        #expect(FontWeight(parsing: "heavy")?.value == 800)
        #expect(FontWeight(parsing: "Heavy", heavy: .w3c)?.value == 900)
    }

    @Test(arguments: ["0", "1001", "-5", "bolder", "", "semi-boldish", "12.5"])
    func invalidWeightsAreRejected(text: String) {
        #expect(FontWeight(parsing: text) == nil)
    }

    @Test func nearestStepRoundsHalfUpAndClampsToTheNineSteps() {
        #expect(FontWeight(450)!.nearestStep.value == 500)
        #expect(FontWeight(449)!.nearestStep.value == 400)
        #expect(FontWeight(950)!.nearestStep.value == 900)
        #expect(FontWeight(20)!.nearestStep.value == 100)
        #expect(FontWeight(653)!.isStep == false)
        #expect(FontWeight(600)!.isStep)
    }

    @Test func acceptedNamesListEveryNameIncludingHeavy() {
        let names = FontWeight.acceptedNames
        #expect(names.contains("heavy"))
        #expect(names.contains("hairline"))
        #expect(names.first == "thin" || names.first == "hairline")
    }
}

import Testing

@testable import FontRegCore

/// CSS Fonts Level 4 weight matching, each branch, and where it differs from fontconfig.
@Suite struct WeightMatcherTests {
    static func face(_ weight: Int, _ style: FontStyle = .normal, range: ClosedRange<Int>? = nil) -> FaceRecord {
        var face = FaceRecord(
            postscriptName: "F-\(weight)\(style == .normal ? "" : style.rawValue)", family: "F", subfamily: "",
            fullName: "",
            weight: weight, italic: style == .italic, oblique: style == .oblique, file: "/f/\(weight)-\(style).ttf")
        if let range {
            face.axes = [
                VariationAxis(
                    tag: "wght", minimum: Double(range.lowerBound), defaultValue: Double(weight),
                    maximum: Double(range.upperBound))
            ]
        }
        return face
    }

    func pick(_ weights: [Int], _ desired: Int) -> Int? {
        WeightMatcher.cssMatch(weights.map { Self.face($0) }, desired: desired)?.weight
    }

    @Test func desiredBelow400PrefersLighterDescendingThenHeavier() {
        #expect(pick([100, 300], 200) == 100)  // fontconfig picks 300 here
        #expect(pick([100, 200, 500], 250) == 200)
        #expect(pick([500, 600], 250) == 500)
    }

    @Test func desiredBetween400And500PrefersHeavierUpTo500ThenLighterThenHeavier() {
        #expect(pick([380, 500], 400) == 500)  // fontconfig picks 380 here
        #expect(pick([300, 500, 600], 450) == 500)
        #expect(pick([300, 600], 450) == 300)
        #expect(pick([600, 700], 450) == 600)
        #expect(pick([300, 480, 490], 450) == 480)
    }

    @Test func desiredAbove500PrefersHeavierAscendingThenLighterDescending() {
        #expect(pick([700, 900], 800) == 900)  // fontconfig: whichever was scanned first
        #expect(pick([400, 700, 800], 750) == 800)
        #expect(pick([300, 400], 750) == 400)
    }

    @Test func anExactWeightWins() {
        #expect(pick([100, 400, 700], 700) == 700)
    }

    @Test func aVariableFaceWhoseRangeCoversTheWeightCountsAsThatWeight() {
        let variable = Self.face(400, range: 100...900)
        let chosen = WeightMatcher.cssMatch([Self.face(700), variable], desired: 650)
        #expect(chosen?.weightRange == 100...900)
        let outside = WeightMatcher.cssMatch([Self.face(200, range: 100...300), Self.face(700)], desired: 650)
        #expect(outside?.weight == 700)
    }

    @Test func styleOrderFallsBackItalicToObliqueToNormal() {
        #expect(WeightMatcher.styleOrder(italic: true) == [.italic, .oblique, .normal])
        #expect(WeightMatcher.styleOrder(italic: false) == [.normal, .oblique, .italic])
    }

    @Test func widthPrefersNormalThenNarrowerThenWider() {
        var condensed = Self.face(400); condensed.width = 3
        var expanded = Self.face(400); expanded.width = 7
        #expect(WeightMatcher.preferredWidth([condensed, Self.face(700), expanded]).map(\.width) == [5])
        #expect(WeightMatcher.preferredWidth([condensed, expanded]).map(\.width) == [3])
    }

    @Test func androidTakesTheSmallestDistanceAndPenalizesSlant() {
        let faces = [Self.face(400), Self.face(700), Self.face(900, .italic)]
        #expect(WeightMatcher.androidMatch(faces, desired: 850, italic: false)?.weight == 700)
        #expect(WeightMatcher.androidMatch(faces, desired: 850, italic: true)?.weight == 900)
    }
}

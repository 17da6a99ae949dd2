import Testing

@testable import FontRegCore

@Suite("Family suggestions")
struct FamilySuggesterTests {
    /// The textbook Levenshtein distance, to check the banded one against.
    static func plainDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }

    @Test func theBandedDistanceAgreesWithLevenshteinUpToItsLimitAndOnlyReportsOverBeyondIt() {
        let words = ["", "a", "lato", "latto", "atol", "notosans", "notoserif", "avenirfixture", "avenir", "xyz", "é"]
        for a in words {
            for b in words {
                let exact = Self.plainDistance(a, b)
                #expect(EditDistance.between(a, b) == exact, "\(a) / \(b)")
                for limit in 0...4 {
                    let bounded = EditDistance.bounded(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit)
                    if exact <= limit {
                        #expect(bounded == exact, "\(a) / \(b) limit \(limit)")
                    } else {
                        #expect(bounded > limit, "\(a) / \(b) limit \(limit)")
                    }
                }
            }
        }
    }

    @Test func suggestsCloseAndContainingNamesClosestFirst() {
        let suggester = FamilySuggester(familyNames: ["Lato", "Noto Sans", "Noto Serif", "Avenir Fixture"])
        #expect(suggester.suggestions(for: "Latto") == ["Lato"])
        #expect(suggester.suggestions(for: "noto-sans").first == "Noto Sans")
        #expect(suggester.suggestions(for: "Avenir") == ["Avenir Fixture"])
        #expect(suggester.suggestions(for: "Qqqqqqqqqqqqq").isEmpty)
    }

    @Test func aNameLongerThanAnyFamilyGetsNoSuggestionsAndCostsNoMoreThanAShortOne() {
        let names = (0..<500).map { "Family Number \($0) Regular Text" }
        let suggester = FamilySuggester(familyNames: names)
        #expect(suggester.suggestions(for: String(repeating: "a", count: 1 << 20)).isEmpty)
        let clock = ContinuousClock()
        let worst = clock.measure {
            for index in 0..<10 {
                _ = suggester.suggestions(
                    for: String(String(repeating: "Family Number \(index) ", count: 3).prefix(64)))
            }
        }
        // 10 searches of the longest scored name over 500 families: each is bounded by the
        // band, far below the seconds the unbounded search took on a long name.
        #expect(worst < .seconds(2), "20 worst-case searches took \(worst)")
    }
}

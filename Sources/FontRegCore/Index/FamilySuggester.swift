/// Finds the registered families closest to a name that is not registered, at a cost bounded
/// by the index alone, whatever the caller sends.
///
/// The family keys are normalized once, when the index is built. A name longer than
/// ``maximumNameScalars`` gets no suggestions (no family name is that long, so it is no typo of
/// one), and the edit distance gives up as soon as it passes the largest distance that would be
/// suggested, so each family costs at most `64 × (2 × limit + 1)` steps.
struct FamilySuggester: Sendable {
    /// The longest normalized name scored, in Unicode scalars; longer names get no suggestions.
    static let maximumNameScalars = 64

    private let names: [String]
    private let keys: [[Unicode.Scalar]]

    /// Normalizes the family names once.
    init(familyNames: [String]) {
        names = familyNames
        keys = familyNames.map { Array(FamilyKey($0).value.unicodeScalars.prefix(Self.maximumNameScalars)) }
    }

    /// Up to three registered family names close to `name`, closest first.
    func suggestions(for name: String) -> [String] {
        // Not even normalized when far too long: that alone would cost time in proportion to the input.
        guard name.utf8.count <= Self.maximumNameScalars * 16 else { return [] }
        let key = Array(FamilyKey(name).value.unicodeScalars.prefix(Self.maximumNameScalars + 1))
        guard !key.isEmpty, key.count <= Self.maximumNameScalars else { return [] }
        let limit = max(2, key.count / 3)
        var scored: [(Int, String)] = []
        for (offset, other) in keys.enumerated() {
            var distance = EditDistance.bounded(key, other, limit: limit)
            if distance > 1 && Self.related(key, other) { distance = 1 }
            if distance <= limit { scored.append((distance, names[offset])) }
        }
        return scored.sorted { $0 < $1 }.prefix(3).map(\.1)
    }

    /// One is a prefix of the other, or `key` occurs inside `other`.
    private static func related(_ key: [Unicode.Scalar], _ other: [Unicode.Scalar]) -> Bool {
        if other.starts(with: key) || key.starts(with: other) { return true }
        guard key.count < other.count else { return false }
        for start in 0...(other.count - key.count) where other[start..<(start + key.count)].elementsEqual(key) {
            return true
        }
        return false
    }
}

/// Levenshtein distance between two short strings.
package enum EditDistance {
    /// The distance between `a` and `b`, counted in Unicode scalars.
    package static func between(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        return bounded(x, y, limit: max(x.count, y.count))
    }

    /// The distance between `x` and `y` when it is at most `limit`, otherwise some value over `limit`.
    ///
    /// Only the diagonal band `|i - j| <= limit` is computed and the search stops once a whole
    /// row is over the limit, so the cost is `O(min(|x|, |y|) × limit)`.
    package static func bounded(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar], limit: Int) -> Int {
        if abs(x.count - y.count) > limit { return limit + 1 }
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        let over = limit + 1
        var previous = [Int](repeating: over, count: y.count + 1)
        var current = [Int](repeating: over, count: y.count + 1)
        for j in 0...min(y.count, limit) { previous[j] = j }
        for i in 1...x.count {
            let low = max(1, i - limit), high = min(y.count, i + limit)
            current[low - 1] = low == 1 && i <= limit ? i : over
            var rowMinimum = current[low - 1]
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)
                    let value = min(previous[j] + 1, current[j - 1] + 1, substitution)
                    current[j] = min(value, over)
                    rowMinimum = min(rowMinimum, current[j])
                }
            }
            if high < y.count { current[high + 1] = over }
            if rowMinimum > limit { return over }
            swap(&previous, &current)
        }
        return min(previous[y.count], over)
    }
}

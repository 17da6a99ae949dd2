/// The command a mistyped name most likely meant (`resolv` → `resolve`), by edit distance.
enum CommandSuggestion {
    /// The closest of `candidates` to `name`, when it is close enough to be a typo or a prefix.
    ///
    /// - Parameters:
    ///   - name: what was typed.
    ///   - candidates: the known names.
    /// - Returns: the closest name within two edits (or one that `name` starts), else nil.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let typed = name.lowercased()
        if let prefixed = candidates.first(where: { $0.hasPrefix(typed) && typed.count >= 3 }) { return prefixed }
        let scored = candidates.map { (name: $0, distance: distance(typed, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 else { return nil }
        return best.name
    }

    /// The Levenshtein distance between two strings (insertions, deletions, substitutions).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where j <= b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

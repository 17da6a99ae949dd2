/// What the resolver asks of the faces it resolves against: the in-memory ``FontIndex`` or a ``MappedSnapshot``.
package protocol FaceLookup {
    /// The family under an already normalized key.
    func family(key: FamilyKey) -> FamilyEntry?
    /// The family with this name under its normalized key.
    func family(named name: String) -> FamilyEntry?
    /// The face with this PostScript name, ignoring case.
    func face(postscriptName: String) -> FaceRecord?
    /// The registered families closest to a name that is not registered, best first.
    func suggestions(for name: String) -> [String]
}

extension FontIndex: FaceLookup {}
extension MappedSnapshot: FaceLookup {}

/// The closest registered families to a name that is not registered, shared by the index and the snapshot.
package enum FamilySuggestions {
    /// Up to three family names, closest first.
    ///
    /// - Parameters:
    ///   - name: the name that was not found.
    ///   - candidates: each family's normalized key and name.
    /// - Returns: names within an edit distance of a third of the key (at least 2); a prefix or part counts as 1.
    package static func closest(to name: String, among candidates: [(key: String, name: String)]) -> [String] {
        let key = FamilyKey(name).value
        guard !key.isEmpty else { return [] }
        let scored = candidates.map { candidate -> (Int, String) in
            let other = candidate.key
            var distance = EditDistance.between(key, other)
            if other.hasPrefix(key) || key.hasPrefix(other) || other.contains(key) { distance = min(distance, 1) }
            return (distance, candidate.name)
        }
        let limit = max(2, key.count / 3)
        return scored.filter { $0.0 <= limit }.sorted { $0 < $1 }.prefix(3).map(\.1)
    }
}

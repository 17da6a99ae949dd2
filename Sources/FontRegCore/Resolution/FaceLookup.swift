/// What the resolver asks of the faces it resolves against: the in-memory ``FontIndex`` or a ``MappedSnapshot``.
protocol FaceLookup {
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

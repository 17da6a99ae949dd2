extension FamilyEntry {
    /// The number of faces (``faces``' count, without decoding them).
    public var faceCount: Int { mapped?.servedCount ?? faces.count }

    /// The default rule's composed name of a slot, or `nil` when the entry has none (see ``defaultComposed``).
    ///
    /// - Parameter slot: ``composedSlot(weight:italic:)``.
    func composed(slot: Int) -> ComposedSlot? {
        if let mapped { return mapped.composed(slot: slot) }
        return defaultComposed.isEmpty ? nil : defaultComposed[slot]
    }

    /// The face CSS picks for a request, with its rank (``FaceMatcher/best(_:for:)`` over ``faces``).
    ///
    /// - Parameter request: the width, style and weight wanted.
    /// - Returns: the face and its rank, or `nil` for a family without faces.
    func bestFace(for request: FaceMatcher.Request) -> (face: FaceRecord, rank: FaceMatcher.Rank)? {
        if let mapped { return mapped.best(for: request) }
        return FaceMatcher.best(faces, traits: matchTraits, for: request)
    }
}

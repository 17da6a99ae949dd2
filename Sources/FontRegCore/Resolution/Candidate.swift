/// One face of a family in the order CSS Fonts 4 would try it for a query, with what a renderer
/// must set and fake to draw with it (see ``Resolver/candidates(_:)``).
public struct Candidate: Sendable, Hashable, Codable {
    /// The face.
    public var face: FaceRecord
    /// The axis values to set, in the file's axis order; empty for a static face.
    public var variations: [VariationSetting]
    /// What the renderer must fake with this face.
    public var synthesis: Synthesis
    /// The weight drawn: the `wght` value set, else the face's weight.
    public var weight: Int
    /// Whether the face has the width, style (and oblique angle) and weight asked for (a variable range counts).
    public var exact: Bool

    /// Creates a candidate.
    public init(face: FaceRecord, variations: [VariationSetting], synthesis: Synthesis, weight: Int, exact: Bool) {
        self.face = face
        self.variations = variations
        self.synthesis = synthesis
        self.weight = weight
        self.exact = exact
    }
}

/// The ranked faces of the family a query names.
public struct CandidateList: Sendable, Hashable, Codable {
    /// The family after aliases, as registered.
    public var resolvedFamily: String
    /// The weight asked for.
    public var requestedWeight: Int
    /// The weight after Bold Text.
    public var effectiveWeight: Int
    /// The faces, best first.
    public var candidates: [Candidate]

    /// Creates a list.
    public init(resolvedFamily: String, requestedWeight: Int, effectiveWeight: Int, candidates: [Candidate]) {
        self.resolvedFamily = resolvedFamily
        self.requestedWeight = requestedWeight
        self.effectiveWeight = effectiveWeight
        self.candidates = candidates
    }
}

extension Resolver {
    /// The registered family's faces in the order CSS Fonts 4 §5.2 tries them for the query
    /// (width, then style, then weight; like `fc-match -s`), each with its variations and synthesis,
    /// so that a renderer can fall back without asking again.
    ///
    /// - Throws: ``ResolveError/familyNotFound(family:suggestions:)`` when no registered family
    ///   has the name (candidates never come from the system fallback).
    public func candidates(_ query: ResolveQuery) throws(ResolveError) -> CandidateList {
        var run = ResolverRun(query: query)
        let family = run.lookUpFamily(index: index, rules: rules)
        run.applyBoldText(family: family)
        guard let entry = family.entry else {
            throw .familyNotFound(family: query.family, suggestions: index.suggestions(for: query.family))
        }
        let effective = run.effective
        let ordered = FaceMatcher.ordered(entry.faces, for: run.matchRequest)
        let candidates = ordered.map { face, rank in
            let answer = Rendering.answer(face: face, rank: rank, query: query, effective: effective)
            return Candidate(
                face: face, variations: answer.variations, synthesis: answer.synthesis, weight: answer.weight,
                exact: rank.widthMatches && rank.styleExact && face.weightRange.contains(effective))
        }
        return CandidateList(
            resolvedFamily: entry.name, requestedWeight: run.requested, effectiveWeight: effective,
            candidates: candidates)
    }
}

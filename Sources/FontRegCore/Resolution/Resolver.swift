/// Resolves family + weight + style (+ Bold Text) to a registered face, and says why.
///
/// The steps: alias and rule lookup; the Bold Text weight by policy; the composed face
/// name matched against registered PostScript names without regard to case; else a face
/// of the family chosen by CSS Fonts 4 (Android's nearest rule under the `android`
/// policy); else, unless strict, fontconfig's system sans-serif, clearly marked.
public struct Resolver: Sendable {
    /// The faces to resolve against.
    public let index: FontIndex
    /// The family rules and aliases.
    public let rules: RuleSet
    /// The system fallback: the best system sans-serif for an OpenType weight and style.
    public let systemFallback: (@Sendable (_ weight: Int, _ italic: Bool) -> FaceRecord?)?

    /// Creates a resolver over a snapshot of faces and rules.
    ///
    /// - Parameters:
    ///   - index: the faces to resolve against.
    ///   - rules: the family rules and aliases.
    ///   - systemFallback: the face to use for an unknown family (weight, italic), or `nil` for none.
    public init(
        index: FontIndex, rules: RuleSet = .empty, systemFallback: (@Sendable (Int, Bool) -> FaceRecord?)? = nil
    ) {
        self.index = index
        self.rules = rules
        self.systemFallback = systemFallback
    }

    /// Resolves a query.
    ///
    /// - Parameter query: the family, weight, style and Bold Text setting.
    /// - Returns: the face that serves the query, how it was found, and the trace.
    /// - Throws: ``ResolveError/familyNotFound(family:suggestions:)`` for an unknown family in
    ///   strict mode (or with no system fallback), naming the closest registered families.
    public func resolve(_ query: ResolveQuery) throws(ResolveError) -> Resolution {
        try Self.resolve(query, in: index, rules: rules, systemFallback: systemFallback)
    }

    /// Resolves a query against any source of faces: the in-memory index or a mapped snapshot.
    ///
    /// - Parameters:
    ///   - query: the family, weight, style and Bold Text setting.
    ///   - index: the faces to resolve against.
    ///   - rules: the family rules and aliases.
    ///   - systemFallback: the face to use for an unknown family, or `nil` for none.
    /// - Returns: the face that serves the query, how it was found, and the trace.
    /// - Throws: ``ResolveError`` as ``resolve(_:)`` does.
    static func resolve(
        _ query: ResolveQuery, in index: some FaceLookup, rules: RuleSet,
        systemFallback: (@Sendable (Int, Bool) -> FaceRecord?)?
    ) throws(ResolveError) -> Resolution {
        var run = ResolverRun(query: query)
        // 1. Aliases and the family rule.
        let family = run.lookUpFamily(index: index, rules: rules)
        // 2. Bold Text.
        run.applyBoldText(family: family)
        // 3. The composed face name.
        guard let entry = family.entry else {
            let composed = family.rule.composedName(weight: run.effective, italic: query.italic)
            return try fallback(
                query: query, composed: composed, requested: run.requested, effective: run.effective,
                policy: run.boldPolicy, steps: run.steps, notes: run.notes, index: index,
                systemFallback: systemFallback)
        }
        var composed: String?
        if run.composedNameApplies {
            switch run.matchComposedName(entry: entry, family: family, index: index) {
            case .found(let resolution): return resolution
            case .notFound(let name): composed = name
            }
        }
        // 4. A face of the family by CSS Fonts 4 (or Android's nearest rule).
        return try run.matchInFamily(entry: entry, family: family, composed: composed)
    }

    /// Step 5: the family is not registered.
    private static func fallback(
        query: ResolveQuery, composed: String?, requested: Int, effective: Int,
        policy: BoldTextPolicy?, steps: [ResolveStep], notes: [ResolveWarning], index: some FaceLookup,
        systemFallback: (@Sendable (Int, Bool) -> FaceRecord?)?
    ) throws(ResolveError) -> Resolution {
        var steps = steps, notes = notes
        let suggestions = index.suggestions(for: query.family)
        steps.append(.notRegistered(family: query.family, suggestions: suggestions))
        if query.strict {
            throw .familyNotFound(family: query.family, suggestions: suggestions)
        }
        guard let systemFallback, let face = systemFallback(effective, query.italic) else {
            throw .familyNotFound(family: query.family, suggestions: suggestions)
        }
        steps.append(.systemFallback(postscriptName: face.postscriptName, family: face.family, weight: effective))
        notes.append(.systemFallback(family: query.family, fallbackFamily: face.family, suggestions: suggestions))
        return Resolution(
            face: face, composedName: composed, match: .systemFallback, requestedWeight: requested,
            effectiveWeight: effective, resolvedFamily: face.family, boldPolicy: policy, steps: steps, notes: notes)
    }

    /// The weights a family has in a style; a family with no face of that style uses its normal faces.
    static func registeredWeights(_ entry: FamilyEntry, style: FontStyle) -> [Int] {
        let weights = entry.registeredWeights(style: style)
        return weights.isEmpty ? entry.registeredWeights(style: .normal) : weights
    }
}

import FontRegJSON
import FontRegSystem

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

    public init(
        index: FontIndex, rules: RuleSet = .empty, systemFallback: (@Sendable (Int, Bool) -> FaceRecord?)? = nil
    ) {
        self.index = index
        self.rules = rules
        self.systemFallback = systemFallback
    }

    /// Resolves a query.
    ///
    /// - Throws: ``ResolveError/familyNotFound(family:suggestions:)`` for an unknown family in
    ///   strict mode (or with no system fallback), naming the closest registered families.
    public func resolve(_ query: ResolveQuery) throws(ResolveError) -> Resolution {
        var steps: [ResolveStep] = []
        var notes: [ResolveWarning] = []
        steps.reserveCapacity(8)
        let requested = query.weight.value
        steps.append(.asked(family: query.family, weight: requested, italic: query.italic, boldText: query.boldText))

        // 1. Aliases and the family rule.
        var key = FamilyKey(query.family)
        if !rules.isEmpty, let alias = rules.alias(key: key) {
            key = FamilyKey(alias.target)
            steps.append(.alias(name: query.family, target: alias.target, deprecated: alias.deprecated))
            if alias.deprecated { notes.append(.deprecatedAlias(name: query.family, target: alias.target)) }
        }
        let declared = rules.isEmpty ? nil : rules.rule(key: key)
        let entry = index.family(key: key) ?? declared.flatMap { index.family(named: $0.family) }
        let ruleForEntry = declared ?? (rules.isEmpty ? nil : entry.flatMap { rules.rule(for: $0.name) })
        let rule = ruleForEntry ?? entry?.defaultRule ?? FamilyRule.defaultRule(for: query.family, faces: [])
        if let entry { steps.append(.foundFamily(name: entry.name, faces: entry.faces.count)) }
        steps.append(ruleForEntry != nil ? .rule(rule) : .defaultRule(source: rule.source))

        let style: FontStyle = query.italic ? .italic : .normal
        let policy = query.boldPolicy ?? rule.boldPolicy

        // 2. Bold Text.
        var effective = requested
        if query.boldText {
            let registered = entry.map { Self.registeredWeights($0, style: style) } ?? []
            let supported = rule.supportedWeights ?? (entry == nil ? FontWeight.steps.map(\.value) : registered)
            effective = BoldText.weight(for: requested, policy: policy, supported: supported)
            steps.append(
                .boldText(
                    policy: policy, requested: requested, effective: effective, supported: supported,
                    fromRule: rule.supportedWeights != nil, style: style))
            if policy == .nextHeavier, let entry {
                let ideal = BoldText.idealNextStep(after: requested)
                if let heaviest = supported.max(), heaviest <= requested {
                    notes.append(
                        .boldTextAtHeaviest(requested: requested, family: entry.name, style: style, heaviest: heaviest))
                } else if ideal != requested && !registered.contains(ideal) {
                    notes.append(
                        .boldTextStepMissing(
                            ideal: ideal, requested: requested, family: entry.name, style: style, used: effective))
                }
            }
        }
        let boldPolicy = query.boldText ? policy : nil

        // 3. The composed face name.
        guard let entry else {
            let composed = rule.composedName(weight: effective, italic: query.italic)
            return try fallback(
                query: query, composed: composed, requested: requested, effective: effective, policy: boldPolicy,
                steps: steps, notes: notes)
        }
        let composed: String?
        let precomputed =
            ruleForEntry == nil && effective % 100 == 0 && (100...900).contains(effective)
            && !entry.defaultComposed.isEmpty
        if precomputed {
            // The default rule's names were looked up when the index was built.
            switch entry.defaultComposed[FamilyEntry.composedSlot(weight: effective, italic: query.italic)] {
            case .found(let name, let face):
                steps.append(.composedFound(composed: name, registered: face.postscriptName))
                return Resolution(
                    face: face, composedName: name, match: .exactName, requestedWeight: requested,
                    effectiveWeight: effective, resolvedFamily: entry.name, boldPolicy: boldPolicy, steps: steps,
                    notes: notes)
            case .misfit(let name, let face):
                let sameFamily = FamilyKey(face.family) == FamilyKey(entry.name)
                steps.append(
                    .composedWrongWeight(
                        registered: face.postscriptName, weight: face.weight,
                        otherFamily: sameFamily ? nil : face.family, effective: effective, family: entry.name))
                steps.append(.composedMissing(composed: name))
                composed = name
            case .missing(let name):
                steps.append(.composedMissing(composed: name))
                composed = name
            }
        } else {
            composed = rule.composedName(weight: effective, italic: query.italic)
        }
        if !precomputed, let composed {
            if let face = index.face(postscriptName: composed) {
                let sameFamily = face.family == entry.name || FamilyKey(face.family) == FamilyKey(entry.name)
                if ruleForEntry == nil && (!sameFamily || !face.weightRange.contains(effective)) {
                    // The default rule's names are a guess: Lato's "Thin" is 200, not 100.
                    steps.append(
                        .composedWrongWeight(
                            registered: face.postscriptName, weight: face.weight,
                            otherFamily: sameFamily ? nil : face.family, effective: effective, family: entry.name))
                } else {
                    steps.append(.composedFound(composed: composed, registered: face.postscriptName))
                    return Resolution(
                        face: face, composedName: composed, match: .exactName, requestedWeight: requested,
                        effectiveWeight: effective, resolvedFamily: entry.name, boldPolicy: boldPolicy, steps: steps,
                        notes: notes)
                }
            }
            steps.append(.composedMissing(composed: composed))
        } else if composed == nil {
            steps.append(.offGrid(weight: effective))
        }

        // 4. A face of the family by CSS Fonts 4 (or Android's nearest rule).
        var chosen: FaceRecord?
        if query.boldText && policy == .android {
            chosen = WeightMatcher.androidMatch(
                WeightMatcher.preferredWidth(entry.faces), desired: effective, italic: query.italic)
            steps.append(.androidMatching)
        } else {
            for candidateStyle in WeightMatcher.styleOrder(italic: query.italic) {
                guard let ofStyle = entry.preferredFacesByStyle[candidateStyle], !ofStyle.isEmpty else { continue }
                if candidateStyle != style {
                    steps.append(.styleFallback(wanted: style, used: candidateStyle, family: entry.name))
                    notes.append(.styleMissing(family: entry.name, wanted: style, used: candidateStyle))
                }
                chosen = WeightMatcher.cssMatch(ofStyle, desired: effective)
                break
            }
        }
        guard let face = chosen else { throw .noFaceInFamily(family: entry.name) }
        let exact = face.weightRange.contains(effective) && face.style == style
        if face.weightRange.count > 1 {
            steps.append(.variable(postscriptName: face.postscriptName, range: face.weightRange, weight: effective))
        }
        if exact {
            steps.append(.matched(postscriptName: face.postscriptName, weight: effective))
        } else {
            steps.append(.substituted(postscriptName: face.postscriptName, faceWeight: face.weight, weight: effective))
            notes.append(.substituted(faceWeight: face.weight, weight: effective, family: entry.name))
        }
        return Resolution(
            face: face, composedName: composed, match: exact ? .familyWeight : .nearestWeight,
            requestedWeight: requested, effectiveWeight: effective, resolvedFamily: entry.name, boldPolicy: boldPolicy,
            steps: steps, notes: notes)
    }

    /// Step 5: the family is not registered.
    private func fallback(
        query: ResolveQuery, composed: String?, requested: Int, effective: Int,
        policy: BoldTextPolicy?, steps: [ResolveStep], notes: [ResolveWarning]
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

/// One resolution in progress: the query, the weights worked out so far, and the trace.
///
/// ``Resolver/resolve(_:)`` runs its steps in order on this value; each step appends to the
/// trace (`steps`) and to the warnings (`notes`) it reports.
struct ResolverRun {
    /// The family as the registry and the rules know it.
    struct Family {
        /// The registered family, when there is one.
        var entry: FamilyEntry?
        /// The rule that applies: declared for the family, else the family's default rule.
        var rule: FamilyRule
        /// Whether `rule` came from a rule file (not the default rule).
        var declared: Bool
    }

    /// The outcome of looking up the composed face name.
    enum ComposedMatch {
        /// The composed name is a registered face of the right weight.
        case found(Resolution)
        /// No usable face has the composed name (`nil` when no name composes for the weight).
        case notFound(String?)
    }

    let query: ResolveQuery
    /// The weight asked for.
    let requested: Int
    /// The weight to draw at: `requested`, or Bold Text's heavier weight.
    var effective: Int
    /// The Bold Text policy applied, when Bold Text is on.
    var boldPolicy: BoldTextPolicy?
    /// The style asked for.
    let style: FontStyle
    var steps: [ResolveStep] = []
    var notes: [ResolveWarning] = []

    init(query: ResolveQuery) {
        self.query = query
        requested = query.weight.value
        effective = requested
        switch query.style {
        case .normal: style = .normal
        case .italic: style = .italic
        case .oblique: style = .oblique
        }
        steps.reserveCapacity(8)
        steps.append(.asked(family: query.family, weight: requested, italic: query.italic, boldText: query.boldText))
        let oblique: RequestedStyle? = if case .oblique = query.style { query.style } else { nil }
        if query.width != nil || oblique != nil || query.opticalSize != nil || query.synthesis != .all {
            steps.append(
                .askedAlso(
                    width: query.width, style: oblique, opticalSize: query.opticalSize,
                    synthesis: query.synthesis == .all ? nil : query.synthesis))
        }
    }

    /// Whether the composed face name can answer the query: it names weight and italic only,
    /// so a query for another width or an oblique goes straight to CSS matching.
    var composedNameApplies: Bool {
        if let width = query.width, width != 100 { return false }
        if case .oblique = query.style { return false }
        return true
    }

    /// What the face matcher needs from this query, at the effective weight.
    var matchRequest: FaceMatcher.Request {
        FaceMatcher.Request(width: query.width ?? 100, style: query.style, weight: effective)
    }

    /// Step 1: follows an alias, finds the registered family and the rule that applies to it.
    mutating func lookUpFamily(index: some FaceLookup, rules: RuleSet) -> Family {
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
        if let entry { steps.append(.foundFamily(name: entry.name, faces: entry.faceCount)) }
        steps.append(ruleForEntry != nil ? .rule(rule) : .defaultRule(source: rule.source))
        return Family(entry: entry, rule: rule, declared: ruleForEntry != nil)
    }

    /// The Bold Text policy: the query's, else the family rule's.
    func policy(_ family: Family) -> BoldTextPolicy { query.boldPolicy ?? family.rule.boldPolicy }

    /// Step 2: with Bold Text on, moves the effective weight by the policy, among the weights
    /// the rule supports (or the family has), and warns when the ideal next step is missing.
    mutating func applyBoldText(family: Family) {
        guard query.boldText else { return }
        let policy = policy(family)
        boldPolicy = policy
        let rule = family.rule
        let registered = family.entry.map { Resolver.registeredWeights($0, style: style) } ?? []
        let supported = rule.supportedWeights ?? (family.entry == nil ? FontWeight.steps.map(\.value) : registered)
        effective = BoldText.weight(for: requested, policy: policy, supported: supported)
        steps.append(
            .boldText(
                policy: policy, requested: requested, effective: effective, supported: supported,
                fromRule: rule.supportedWeights != nil, style: style))
        if policy == .nextHeavier, let entry = family.entry {
            let ideal = BoldText.idealNextStep(after: requested)
            if let heaviest = supported.max(), heaviest <= requested {
                notes.append(
                    .boldTextAtHeaviest(requested: requested, family: entry.name, style: style, heaviest: heaviest))
            } else if let lightest = registered.min(), requested < lightest, effective == lightest {
                notes.append(
                    .boldTextBelowLightest(requested: requested, family: entry.name, style: style, lightest: lightest))
            } else if ideal != requested && !registered.contains(ideal) {
                notes.append(
                    .boldTextStepMissing(
                        ideal: ideal, requested: requested, family: entry.name, style: style, used: effective))
            }
        }
    }

    /// A resolution of `face` for this query, with the variations and synthesis it needs.
    ///
    /// - Parameter entry: the family, for duplicate notes; `nil` for a system fallback.
    mutating func resolution(
        _ face: FaceRecord, composed: String?, match: Resolution.MatchKind, family: String, entry: FamilyEntry? = nil,
        rank: FaceMatcher.Rank? = nil
    ) -> Resolution {
        if let entry, !entry.duplicates.isEmpty { noteDuplicates(of: face, in: entry) }
        // A static face needs no rank: it sets no axis, and its own style says whether it is slanted.
        let used = rank ?? (face.axes.isEmpty ? nil : FaceMatcher.rank(face, for: matchRequest))
        let answer = Rendering.answer(face: face, rank: used, query: query, effective: effective)
        steps.append(contentsOf: answer.steps)
        if !answer.variations.isEmpty {
            steps.append(.variations(postscriptName: face.postscriptName, settings: answer.variations))
        }
        if !answer.synthesis.isEmpty {
            steps.append(.synthesized(answer.synthesis, weight: answer.weight, effective: effective))
            notes.append(.synthesized(family: family, synthesis: answer.synthesis))
        }
        var face = face
        if !answer.variations.isEmpty {
            // The metrics where the renderer draws: MVAR at the coordinates set (issue 27).
            face.metrics = face.metrics(at: answer.variations)
            if let problem = face.metricsVariation.problem {
                notes.append(.metricsVariationIgnored(postscriptName: face.postscriptName, reason: problem))
            }
        }
        return Resolution(
            face: face, composedName: composed, match: match, requestedWeight: requested,
            effectiveWeight: effective, resolvedFamily: family, boldPolicy: boldPolicy, steps: steps, notes: notes,
            variations: answer.variations, synthesis: answer.synthesis)
    }

    /// Records in the trace the duplicates the chosen face won over.
    private mutating func noteDuplicates(of face: FaceRecord, in entry: FamilyEntry) {
        for group in entry.duplicates where group.winner.file == face.file && group.winner == face {
            for loser in group.losers {
                let step = ResolveStep.duplicateLost(
                    postscriptName: face.postscriptName, winnerFile: face.file, loserFile: loser.face.file,
                    reason: loser.reason)
                // A face kept in more than one group (listed under each family name it has) is told once.
                if !steps.contains(step) { steps.append(step) }
            }
        }
    }

    /// Step 3: the face name the rule composes for the effective weight, if it is registered and
    /// really of this family and weight (default-rule names are a guess: Lato's "Thin" is 200).
    mutating func matchComposedName(entry: FamilyEntry, family: Family, index: some FaceLookup) -> ComposedMatch {
        let precomputed =
            !family.declared && effective % 100 == 0 && (100...900).contains(effective)
            ? entry.composed(slot: FamilyEntry.composedSlot(weight: effective, italic: query.italic)) : nil
        if let precomputed {
            // The default rule's names were looked up when the index was built.
            switch precomputed {
            case .found(let name, let face):
                steps.append(.composedFound(composed: name, registered: face.postscriptName))
                return .found(resolution(face, composed: name, match: .exactName, family: entry.name, entry: entry))
            case .misfit(let name, let face):
                noteWrongWeight(face, entry: entry)
                steps.append(.composedMissing(composed: name))
                return .notFound(name)
            case .missing(let name):
                steps.append(.composedMissing(composed: name))
                return .notFound(name)
            }
        }
        guard let composed = family.rule.composedName(weight: effective, italic: query.italic) else {
            steps.append(.offGrid(weight: effective))
            return .notFound(nil)
        }
        if let face = index.face(postscriptName: composed) {
            let sameFamily = face.family == entry.name || FamilyKey(face.family) == FamilyKey(entry.name)
            if !family.declared && (!sameFamily || !face.weightRange.contains(effective)) {
                noteWrongWeight(face, entry: entry)
            } else {
                steps.append(.composedFound(composed: composed, registered: face.postscriptName))
                return .found(
                    resolution(face, composed: composed, match: .exactName, family: entry.name, entry: entry))
            }
        }
        steps.append(.composedMissing(composed: composed))
        return .notFound(composed)
    }

    /// Records that the composed name belongs to a face of another weight or family.
    private mutating func noteWrongWeight(_ face: FaceRecord, entry: FamilyEntry) {
        let sameFamily = FamilyKey(face.family) == FamilyKey(entry.name)
        steps.append(
            .composedWrongWeight(
                registered: face.postscriptName, weight: face.weight,
                otherFamily: sameFamily ? nil : face.family, effective: effective, family: entry.name))
    }

    /// Step 4: a face of the family chosen by CSS Fonts 4 §5.2 (width, then style, then weight;
    /// Android's nearest rule under the `android` Bold Text policy).
    mutating func matchInFamily(entry: FamilyEntry, family: Family, composed: String?) throws(ResolveError)
        -> Resolution
    {
        let request = matchRequest
        let chosen: FaceRecord
        let rank: FaceMatcher.Rank
        if query.boldText && policy(family) == .android {
            guard
                let face = WeightMatcher.androidMatch(
                    WeightMatcher.preferredWidth(entry.faces), desired: effective, italic: query.wantsSlant)
            else { throw .noFaceInFamily(family: entry.name) }
            steps.append(.androidMatching)
            chosen = face
            rank = FaceMatcher.rank(face, for: request)
        } else {
            guard let best = entry.bestFace(for: request) else {
                throw .noFaceInFamily(family: entry.name)
            }
            (chosen, rank) = best
        }
        if !rank.widthMatches {
            steps.append(.widthFallback(wanted: request.width, used: rank.width, family: entry.name))
            notes.append(.widthMissing(family: entry.name, wanted: request.width, used: rank.width))
        }
        let used = Self.usedStyle(chosen, rank: rank)
        if !rank.styleMatches {
            steps.append(.styleFallback(wanted: style, used: used, family: entry.name))
            notes.append(.styleMissing(family: entry.name, wanted: style, used: used))
        } else if case .oblique(let angle) = query.style, rank.angle != (angle ?? RequestedStyle.defaultObliqueAngle) {
            steps.append(
                .angleFallback(
                    wanted: angle ?? RequestedStyle.defaultObliqueAngle, used: rank.angle, family: entry.name))
        }
        let exact = chosen.weightRange.contains(effective) && rank.styleExact && rank.widthMatches
        if chosen.weightRange.count > 1 {
            let clamped = min(chosen.weightRange.upperBound, max(chosen.weightRange.lowerBound, effective))
            steps.append(.variable(postscriptName: chosen.postscriptName, range: chosen.weightRange, weight: clamped))
        }
        if exact {
            steps.append(.matched(postscriptName: chosen.postscriptName, weight: effective))
        } else {
            steps.append(
                .substituted(postscriptName: chosen.postscriptName, faceWeight: chosen.weight, weight: effective))
            notes.append(.substituted(faceWeight: chosen.weight, weight: effective, family: entry.name))
        }
        return resolution(
            chosen, composed: composed, match: exact ? .familyWeight : .nearestWeight, family: entry.name, entry: entry,
            rank: rank)
    }

    /// The style a face is used in: italic, oblique (a slant set on a `slnt` axis counts) or normal.
    static func usedStyle(_ face: FaceRecord, rank: FaceMatcher.Rank) -> FontStyle {
        if face.italic || rank.italicAxis { return .italic }
        if face.oblique || rank.angle != 0 { return .oblique }
        return .normal
    }
}

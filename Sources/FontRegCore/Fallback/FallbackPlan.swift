/// The families a text query may draw with, in order, and what each resolves to — worked out lazily, once per call.
///
/// The order: the stack's families (generic names expanded through fontconfig's configuration);
/// for Han, the families of the language's region (`Noto Sans CJK JP` for `ja`); for colour emoji,
/// fontconfig's `emoji` families; then fontconfig's `sans-serif`; then every registered family.
/// Each family's face comes from ``Resolver`` with the query's weight, style, width and Bold Text,
/// so every fallback face keeps them. Choices for single-scalar clusters are cached by scalar and
/// kind, so a paragraph costs one bisection per cluster once its scripts have been seen.
struct FallbackPlan: Sendable {
    let resolver: Resolver
    let query: TextQuery
    /// The stack's families with generics expanded, each with where it came from.
    private var stack: [(family: String, origin: String)] = []
    private var resolutions: [FamilyKey: Resolution?] = [:]
    private var generics: [String: [String]] = [:]
    private var choices: [UInt64: FallbackChoice?] = [:]
    /// The Han language, region and serif preference (``hanRegion()``), once worked out.
    private var hanRegionMemo: (language: String, region: String, serif: Bool)??
    /// The choice made per Han region family (at most the region's families).
    private var hanChoices: [String: FallbackChoice] = [:]
    /// The most single-code-point choices a plan remembers before it starts afresh.
    static let maximumChoices = 16_384
    /// The most faces one call checks in the Han region and registry-wide steps together; past it
    /// the rest of the call's clusters skip those steps (see docs/fallback.md, "Bounds").
    static let maximumFaceChecksPerCall = 4_096
    /// Which families cover which code points, taken from ``source`` (or built) on first need.
    private var coverageIndex: CoverageIndex?
    /// The cache that keeps the coverage index of the generation (not retained: it holds the plan).
    private weak var source: FallbackPlanCache?
    /// The stack's faces in order, one per family that resolves (worked out on first need).
    private var stackFacesCache: [StackFace]?
    /// The design registry-wide fallback prefers.
    private let design: CoverageIndex.Design
    /// Families whose faces registry-wide fallback looked at, over the plan's life (for tests).
    private(set) var familiesExamined = 0
    /// The runs the plan's last call made (at most 4,096), reserved by the next call's run list
    /// (a plan kept by the daemon serves texts alike: growing the list run by run cost more).
    var lastRunCount = 0
    /// Faces checked in the Han region and registry-wide steps in this call.
    private var faceChecks = 0
    /// The bytes the remembered choices hold besides their slots (``cost(of:)`` summed).
    private var choiceBytes = 0
    /// The bytes the remembered resolutions hold besides their slots: their faces' coverage and traces.
    private var resolutionBytes = 0

    /// The bytes the plan holds, as ``FallbackPlanCache`` bounds them: its own size, the slots of
    /// its tables of choices and resolutions at their capacity, each choice's answer and reason,
    /// and each resolution's face coverage and trace. Kept as choices and resolutions are added,
    /// so asking costs nothing.
    var memoryBytes: Int {
        MemoryLayout<FallbackPlan>.stride + choices.capacity * MemoryLayout<(UInt64, FallbackChoice?)>.stride
            + choiceBytes + resolutions.capacity * MemoryLayout<(FamilyKey, Resolution?)>.stride + resolutionBytes
    }

    /// The bytes a remembered choice holds besides its slot: the shared answer (an object with a
    /// resolution and its trace) and the reason's characters.
    static func cost(of choice: FallbackChoice?) -> Int {
        guard let choice else { return 0 }
        let resolution = choice.shared.value
        return 16 + MemoryLayout<Resolution>.stride + resolution.steps.count * MemoryLayout<ResolveStep>.stride
            + choice.reason.utf8.count
    }

    init(resolver: Resolver, query: TextQuery, coverage source: FallbackPlanCache? = nil) {
        self.resolver = resolver
        self.query = query
        self.source = source
        // Registry-wide fallback prefers the design the stack asks for (sans unless it names serif
        // or monospace), then the plain family over its UI or display cuts (the shorter name).
        self.design = CoverageIndex.Design.of(query.families)
        for (position, name) in query.families.enumerated() {
            let lower = name.lowercased()
            if TextQuery.genericFamilies.contains(lower) {
                for family in expand(lower) { stack.append((family, "fontconfig's \(lower)")) }
            } else {
                stack.append((name, position == 0 ? "the first family asked" : "family \(position + 1) of the stack"))
            }
        }
    }

    /// Starts a call: the plan may come from the cache of the same generation, with its own budget.
    mutating func begin(coverage source: FallbackPlanCache?) {
        self.source = source
        faceChecks = 0
    }

    /// The coverage index of the resolver's index, taken from the cache or built on first need.
    private mutating func coverage() -> CoverageIndex {
        if let coverageIndex { return coverageIndex }
        let index = source?.coverage(for: resolver.index) ?? CoverageIndex(resolver.index)
        coverageIndex = index
        return index
    }

    /// The family key of the first family that resolves, which runs not of it are fallbacks from.
    var firstFamilyKey: FamilyKey? {
        mutating get { firstResolution().map { FamilyKey($0.face.family) } }
    }

    /// Throws when the stack is empty, or in strict mode when a named family is not registered.
    mutating func checkStrict() throws(TextResolveError) {
        guard !query.families.isEmpty else { throw .emptyStack }
        guard query.style.strict else { return }
        for name in query.families where !TextQuery.genericFamilies.contains(name.lowercased()) {
            var strict = query.style
            strict.family = name
            do { _ = try resolver.resolve(strict) } catch { throw .resolve(error) }
        }
    }

    /// The answer for the stack's first family that resolves, else fontconfig's sans-serif.
    mutating func firstResolution() -> Resolution? {
        for entry in stack { if let answer = resolution(of: entry.family) { return answer } }
        for family in expand("sans-serif") { if let answer = resolution(of: family) { return answer } }
        for family in coverage().ranked(design) { if let answer = resolution(of: family.name) { return answer } }
        return nil
    }

    /// The faces of the stack's families that resolve, in stack order, each family once.
    ///
    /// CSS gives a cluster to the first of these that covers it, at every position of the text;
    /// only clusters none of them covers go to system fallback.
    mutating func stackFaces() -> [StackFace] {
        if let stackFacesCache { return stackFacesCache }
        var faces: [StackFace] = []
        var seen = Set<FamilyKey>()
        for entry in stack where seen.insert(FamilyKey(entry.family)).inserted {
            guard let answer = resolution(of: entry.family) else { continue }
            let why = choice(answer, "\(answer.face.family) covers it (\(entry.origin))")
            faces.append(
                StackFace(coverage: answer.face.coverage, isColor: answer.face.isColor, choice: why))
        }
        stackFacesCache = faces
        return faces
    }

    /// Whether any registered face maps the scalar (a bisection of the coverage index's union).
    mutating func anyFaceCovers(_ scalar: Unicode.Scalar) -> Bool {
        coverage().union.contains(scalar)
    }

    /// The face for a cluster the open run cannot draw, or `nil` when no registered face covers it.
    mutating func choose(for cluster: Character, kind: ClusterKind) -> FallbackChoice? {
        let scalars = cluster.unicodeScalars
        let key: UInt64? =
            scalars.count == 1 ? UInt64(scalars.first!.value) << 2 | UInt64(kind.hashKey) : nil
        if let key, let cached = choices[key] { return cached }
        let choice =
            search(cluster, kind: kind, colorOnly: kind == .colorEmoji)
            ?? (kind == .colorEmoji ? search(cluster, kind: .text, colorOnly: false) : nil)
        if let key, faceChecks <= Self.maximumFaceChecksPerCall {
            // A plan outlives its call in the daemon's cache: bound what it remembers, so that
            // texts of ever new code points cannot grow it without end.
            if choices.count >= Self.maximumChoices {
                choices.removeAll(keepingCapacity: true)
                choiceBytes = 0
            }
            if choices.updateValue(choice, forKey: key) == nil { choiceBytes += Self.cost(of: choice) }
        }
        return choice
    }

    private mutating func search(_ cluster: Character, kind: ClusterKind, colorOnly: Bool) -> FallbackChoice? {
        func fits(_ face: FaceRecord) -> Bool { face.coverage.covers(cluster) && (!colorOnly || face.isColor) }
        let limit = Self.maximumFaceChecksPerCall
        for entry in stack {
            if let answer = resolution(of: entry.family), fits(answer.face) {
                return choice(answer, "\(answer.face.family) covers it (\(entry.origin))")
            }
        }
        // A cluster with a scalar no face maps fits no face: the index says so without a search.
        let union = coverage().union
        if cluster.unicodeScalars.contains(where: { !CharacterCoverage.isIgnorable($0) && !union.contains($0) }) {
            return nil
        }
        if kind == .han, let han = hanRegion() {
            for family in coverage().regionalFamilies(han.region, serif: han.serif) {
                faceChecks += 1
                guard faceChecks <= limit else { return nil }
                if let answer = resolvedFamily(family.name), fits(answer.face) {
                    // One choice per regional family and plan: its words and answer do not depend on the cluster.
                    if let known = hanChoices[family.name] { return known }
                    let why = "Han for \(han.language): \(answer.face.family) is the \(han.region) face that covers it"
                    let made = choice(answer, why)
                    hanChoices[family.name] = made
                    return made
                }
            }
        }
        if colorOnly {
            for family in expand("emoji") {
                if let answer = resolution(of: family), fits(answer.face) {
                    return choice(answer, "emoji presentation: \(answer.face.family) is fontconfig's colour emoji face")
                }
            }
        }
        for family in expand("sans-serif") {
            if let answer = resolution(of: family), fits(answer.face) {
                return choice(
                    answer,
                    "no family of the stack covers it; \(answer.face.family) is fontconfig's sans-serif that does")
            }
        }
        let probe = cluster.unicodeScalars.first { !CharacterCoverage.isIgnorable($0) }?.value
        // A character of a script's block goes first to a family whose face supports the script's
        // language, as fontconfig's FcFontSort orders them (see ``ScriptLanguage``).
        if let language = probe.flatMap(ScriptLanguage.language(of:)) {
            for family in coverage().candidates(covering: probe, design: design, colorOnly: colorOnly) {
                familiesExamined += 1
                let faces = family.faces
                faceChecks += faces.count
                guard faceChecks <= limit else { return nil }
                guard faces.contains(where: fits) else { continue }
                if let answer = resolvedFamily(family.name), fits(answer.face),
                    answer.face.coverage.supports(language: language)
                {
                    return choice(
                        answer,
                        "no family of the stack covers it; \(answer.face.family) is the first registered family"
                            + " that does and supports \(language), the language of its script")
                }
            }
        }
        for family in coverage().candidates(covering: probe, design: design, colorOnly: colorOnly) {
            familiesExamined += 1
            let faces = family.faces
            faceChecks += faces.count
            guard faceChecks <= limit else { return nil }
            guard faces.contains(where: fits) else { continue }
            if let answer = resolvedFamily(family.name), fits(answer.face) {
                let what = colorOnly ? "the first registered colour face" : "the first registered family"
                return choice(answer, "no family of the stack covers it; \(answer.face.family) is \(what) that does")
            }
        }
        return nil
    }

    /// The Han language, its region and whether the stack asks for serif, worked out on the
    /// plan's first Han cluster (`nil` inside when no region is known).
    private mutating func hanRegion() -> (language: String, region: String, serif: Bool)? {
        if let known = hanRegionMemo { return known }
        let language = query.language ?? HanRegion.assumedLanguage
        let region = HanRegion.region(for: language) ?? HanRegion.region(for: HanRegion.assumedLanguage)
        let serif = query.families.contains { $0.lowercased() == "serif" }
        let found = region.map { (language: language, region: $0, serif: serif) }
        hanRegionMemo = .some(found)
        return found
    }

    private func choice(_ answer: Resolution, _ why: String) -> FallbackChoice {
        var reason = why
        if query.style.boldText {
            reason += "; Bold Text in \(answer.face.family): weight \(answer.effectiveWeight)"
        }
        if answer.synthesis.bold { reason += "; the family has no face that heavy: synthesize bold" }
        return FallbackChoice(resolution: answer, reason: reason)
    }

    /// The family's answer, or `nil` when it is not registered (remembered either way).
    private mutating func resolution(of family: String) -> Resolution? {
        let key = FamilyKey(family)
        if let known = resolutions[key] { return known }
        var asked = query.style
        asked.family = family
        asked.strict = true
        let answer = try? resolver.resolve(asked)
        resolutions[key] = .some(answer)
        if let answer {
            resolutionBytes +=
                answer.face.coverage.memoryBytes + answer.steps.count * MemoryLayout<ResolveStep>.stride
        }
        return answer
    }

    private mutating func resolvedFamily(_ name: String) -> Resolution? { resolution(of: name) }

    /// fontconfig's families for a generic name that are registered, for the query's language.
    /// Kept per plan, and across plans by ``source`` (what a plan made afresh per call spent most on).
    private mutating func expand(_ generic: String) -> [String] {
        if let known = generics[generic] { return known }
        let (index, language) = (resolver.index, query.language)
        func compute() -> [String] {
            let names = FontconfigGenerics.shared.families(for: generic, language: language)
            var seen = Set<FamilyKey>()
            return names.filter { index.family(named: $0) != nil && seen.insert(FamilyKey($0)).inserted }
        }
        let registered =
            source?.genericFamilies(generic, language: language, generation: index.generation, compute) ?? compute()
        generics[generic] = registered
        return registered
    }
}

extension ClusterKind {
    /// Two bits that tell the kinds apart in a cache key.
    var hashKey: Int {
        switch self {
        case .colorEmoji: return 1
        case .han: return 2
        case .text: return 0
        }
    }
}

/// One face of the stack (or one system fallback already used), with what the per-cluster check reads kept apart.
struct StackFace: Sendable {
    /// The face's coverage.
    let coverage: CharacterCoverage
    /// Whether the face draws in colour.
    let isColor: Bool
    /// The choice a cluster it draws gets.
    let choice: FallbackChoice

    /// Whether the face draws the cluster: it maps it, and in colour when colour is asked.
    func draws(_ cluster: Character, colorOnly: Bool) -> Bool {
        (!colorOnly || isColor) && coverage.covers(cluster)
    }
}

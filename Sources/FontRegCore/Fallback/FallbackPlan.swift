import FontRegJSON
import FontRegSystem

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
    /// The most single-code-point choices a plan remembers before it starts afresh.
    static let maximumChoices = 16_384
    /// The registered families in registry-wide fallback order, sorted on first use.
    private var sortedFamilies: [FamilyEntry]?
    /// The registered families as the index holds them.
    private let registered: [FamilyEntry]
    /// The design registry-wide fallback prefers: `sans`, `serif` or `mono`.
    private let wanted: String

    init(resolver: Resolver, query: TextQuery) {
        self.resolver = resolver
        self.query = query
        // Registry-wide fallback prefers the design the stack asks for (sans unless it names serif
        // or monospace), then the plain family over its UI or display cuts (the shorter name).
        self.wanted =
            query.families.contains { $0.lowercased() == "serif" }
            ? "serif" : query.families.contains { $0.lowercased() == "monospace" } ? "mono" : "sans"
        self.registered = resolver.index.families
        for (position, name) in query.families.enumerated() {
            let lower = name.lowercased()
            if TextQuery.genericFamilies.contains(lower) {
                for family in expand(lower) { stack.append((family, "fontconfig's \(lower)")) }
            } else {
                stack.append((name, position == 0 ? "the first family asked" : "family \(position + 1) of the stack"))
            }
        }
    }

    /// Every registered family in registry-wide fallback order, ranked once per plan when first needed.
    private var families: [FamilyEntry] {
        mutating get {
            if let sortedFamilies { return sortedFamilies }
            let wanted = self.wanted
            let sorted = registered.map { (FallbackPlan.rank($0.name, wanted: wanted), $0) }
                .sorted { $0.0 < $1.0 }.map(\.1)
            sortedFamilies = sorted
            return sorted
        }
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
        for family in families { if let answer = resolution(of: family.name) { return answer } }
        return nil
    }

    /// Whether any registered face maps the scalar.
    func anyFaceCovers(_ scalar: Unicode.Scalar) -> Bool {
        registered.contains { $0.faces.contains { $0.coverage.contains(scalar) } }
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
        if let key {
            // A plan outlives its call in the daemon's cache: bound what it remembers, so that
            // texts of ever new code points cannot grow it without end.
            if choices.count >= Self.maximumChoices { choices.removeAll(keepingCapacity: true) }
            choices[key] = choice
        }
        return choice
    }

    private mutating func search(_ cluster: Character, kind: ClusterKind, colorOnly: Bool) -> FallbackChoice? {
        func fits(_ face: FaceRecord) -> Bool { face.coverage.covers(cluster) && (!colorOnly || face.isColor) }
        for entry in stack {
            if let answer = resolution(of: entry.family), fits(answer.face) {
                return choice(answer, "\(answer.face.family) covers it (\(entry.origin))")
            }
        }
        if kind == .han {
            let language = query.language ?? HanRegion.assumedLanguage
            if let region = HanRegion.region(for: language) ?? HanRegion.region(for: HanRegion.assumedLanguage) {
                let serif = query.families.contains { $0.lowercased() == "serif" }
                let regional = families.filter { HanRegion.family($0.name, isOf: region) }
                    .sorted {
                        ($0.name.lowercased().contains("serif") == serif ? 0 : 1, $0.name) < (
                            $1.name.lowercased().contains("serif") == serif ? 0 : 1, $1.name
                        )
                    }
                for family in regional {
                    if let answer = resolvedFamily(family.name), fits(answer.face) {
                        return choice(
                            answer, "Han for \(language): \(answer.face.family) is the \(region) face that covers it")
                    }
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
        for family in families where family.faces.contains(where: fits) {
            if let answer = resolvedFamily(family.name), fits(answer.face) {
                let what = colorOnly ? "the first registered colour face" : "the first registered family"
                return choice(answer, "no family of the stack covers it; \(answer.face.family) is \(what) that does")
            }
        }
        return nil
    }

    /// The order of registry-wide fallback: the wanted design first, then the shorter, then by name.
    private static func rank(_ name: String, wanted: String) -> (Int, Int, String) {
        let lower = name.lowercased()
        let design = lower.contains(wanted) && (wanted != "sans" || !lower.contains("mono")) ? 0 : 1
        return (design, name.count, lower)
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
        return answer
    }

    private mutating func resolvedFamily(_ name: String) -> Resolution? { resolution(of: name) }

    /// fontconfig's families for a generic name that are registered, for the query's language.
    private mutating func expand(_ generic: String) -> [String] {
        if let known = generics[generic] { return known }
        let names = FontconfigGenerics.shared.families(for: generic, language: query.language)
        var seen = Set<FamilyKey>()
        let registered = names.filter { resolver.index.family(named: $0) != nil && seen.insert(FamilyKey($0)).inserted }
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

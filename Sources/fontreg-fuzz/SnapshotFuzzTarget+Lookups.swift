import FontRegCore
import FontRegProtocol

/// Every lookup a client makes on a mapped snapshot (`fontresolve`'s ``SnapshotBackend`` and the
/// library's client): resolve over a grid of weights, styles, widths, Bold Text policies and
/// strictness, with and without the snapshot's own rules; `list` (family summaries, all faces,
/// one family's faces); `face` by PostScript and full name in any case; family lookup by name
/// and key; suggestions; candidates (the CSS order of a family's faces); the served-in-full check.
///
/// Text resolution over the file's text coverage section (layout 8), as the daemon reads its own
/// index file: a few texts of several scripts through ``TextResolver``.
extension SnapshotFuzzTarget {
    /// The longest name asked for: a client's names come from a Varlink message or a command
    /// line, and a longer one would only slow the fuzzer down (hashing and suggestions).
    static let maximumNameBytes = 4096

    /// The weights asked for: every CSS step, the ends of the OpenType scale, and values between steps.
    static let weights = [1, 100, 200, 300, 350, 400, 450, 500, 550, 600, 700, 800, 900, 950, 1000]

    /// The styles asked for, cycled over ``weights``.
    static let styles: [RequestedStyle] = [.normal, .italic, .oblique(angle: nil), .oblique(angle: -20)]

    /// The names to look up in a snapshot: those the input gave, some the snapshot holds (so that
    /// lookups find something even in a whole file the fuzzer wrote) and some it does not.
    static func names(in snapshot: MappedSnapshot, given: [String]) -> [String] {
        var names = given.map(cut)
        for position in 0..<min(snapshot.familyCount, 3) {
            if let family = snapshot.family(at: position) { names.append(family.name) }
        }
        for position in [0, snapshot.faceCount / 2, snapshot.faceCount - 1] {
            guard let face = snapshot.face(at: position) else { continue }
            names += [face.postscriptName, face.fullName, face.family].map(cut)
        }
        names += ["Nonexistent", ""]
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// A name cut to ``maximumNameBytes`` of UTF-8 (at a character boundary).
    static func cut(_ name: String) -> String {
        guard name.utf8.count > maximumNameBytes else { return name }
        var bytes = 0
        var end = name.startIndex
        for index in name.indices {
            let next = name[index].utf8.count
            if bytes + next > maximumNameBytes { break }
            bytes += next
            end = name.index(after: index)
        }
        return String(name[..<end])
    }

    /// The queries asked of each name: the weight × style grid, Bold Text under every policy,
    /// strict, widths, optical sizes and no synthesis.
    static func queries(family: String) -> [ResolveQuery] {
        var queries: [ResolveQuery] = []
        for (i, weight) in weights.enumerated() {
            queries.append(
                ResolveQuery(family: family, weight: FontWeight(weight) ?? .regular, style: styles[i % styles.count]))
        }
        for policy in [nil] + BoldTextPolicy.allCases.map(Optional.some) {
            for italic in [false, true] {
                queries.append(
                    ResolveQuery(family: family, weight: .regular, italic: italic, boldText: true, boldPolicy: policy))
            }
        }
        queries.append(ResolveQuery(family: family, weight: .bold, boldText: true, strict: true))
        queries.append(ResolveQuery(family: family, weight: .light, strict: true, style: .oblique(angle: 10)))
        for width in [50.0, 87.5, 150, 200] {
            queries.append(ResolveQuery(family: family, weight: .bold, width: width, opticalSize: 11))
        }
        queries.append(ResolveQuery(family: family, weight: .thin, italic: true, synthesis: .none))
        return queries
    }

    /// Runs every lookup over a snapshot that opened.
    ///
    /// - Parameters:
    ///   - snapshot: the snapshot.
    ///   - given: the names the input asked for.
    ///   - index: for the unchanged fixture snapshot, the index it was written from: every answer
    ///     must then equal the in-memory index's (the property); `nil` for any other bytes.
    static func exercise(_ snapshot: MappedSnapshot, given: [String], unchanged index: FontIndex?) {
        _ = snapshot.generation
        _ = snapshot.isCurrent
        let names = names(in: snapshot, given: given)
        resolveAll(snapshot, names: names, unchanged: index)
        list(snapshot, names: names, unchanged: index)
        for name in names {
            lookUp(snapshot, name: name, unchanged: index)
            candidates(snapshot, family: name, unchanged: index)
        }
        text(snapshot, names: names, unchanged: index)
    }

    /// The texts resolved: Latin, Arabic, Han, colour emoji, and a code point no face maps.
    static let texts = ["Hello", "مرحبا", "漢字かな", "👩‍💻", "\u{F0000}"]

    /// `ResolveText` over the snapshot served in place: its registry-wide fallback reads the text
    /// coverage section (or lays one out in memory when the file has none).
    static func text(_ snapshot: MappedSnapshot, names: [String], unchanged index: FontIndex?) {
        let served = TextResolver(resolver: Resolver(index: FontIndex(serving: snapshot)))
        let built = index.map { TextResolver(resolver: Resolver(index: $0)) }
        for name in names.prefix(2) + ["No Such Family"] {
            let query = TextQuery(families: [name], style: ResolveQuery(family: ""))
            for text in texts {
                let answer = try? served.resolve(text, query)
                if let built, answer != (try? built.resolve(text, query)) {
                    fatalError("the mapped snapshot resolved the text \(text) differently from the index")
                }
            }
        }
    }

    /// `resolve`, as the client does it (with the snapshot's rules) and as the library's resolver
    /// does it with no rules; the served-in-full check the client makes before trusting an answer.
    static func resolveAll(_ snapshot: MappedSnapshot, names: [String], unchanged index: FontIndex?) {
        let plain = SnapshotResolver(snapshot: snapshot)
        let ruled = SnapshotResolver(snapshot: snapshot, rules: snapshot.rules)
        for (position, name) in names.enumerated() {
            // The whole grid for the first two names, a few queries for the rest (an unknown name pays
            // for the suggestions at each): the grid's paths are the same for every name.
            let all = queries(family: name)
            for query in position < 2 ? all[...] : all.prefix(3) + all.suffix(3) {
                let answer = Result { () throws(ResolveError) in try plain.resolve(query) }
                if case .success(let resolution) = answer {
                    _ = snapshot.servesInFull(family: resolution.resolvedFamily)
                    _ = ResolutionReply(resolution)
                }
                _ = Result { () throws(ResolveError) in try ruled.resolve(query) }
                guard let index else { continue }
                let expected = Result { () throws(ResolveError) in try Resolver(index: index).resolve(query) }
                if answer != expected {
                    fatalError("the mapped snapshot resolved \(query) differently from the index it was written from")
                }
            }
        }
    }

    /// `list`: the family summaries, every listed face, and one family's faces.
    static func list(_ snapshot: MappedSnapshot, names: [String], unchanged index: FontIndex?) {
        let families = (0..<min(snapshot.familyCount, 512)).compactMap { snapshot.family(at: $0) }
        for family in families {
            _ = FamilySummary(family)
            for style in FontStyle.allCases {
                _ = family.registeredWeights(style: style)
                _ = family.faces(style: style)
            }
            _ = family.defaultRule
        }
        let faces = (0..<min(snapshot.faceCount, 4096)).compactMap {
            snapshot.isListed(at: $0) ? snapshot.face(at: $0) : nil
        }
        _ = snapshot.face(at: -1)
        _ = snapshot.face(at: snapshot.faceCount)
        _ = snapshot.family(at: snapshot.familyCount)
        guard let index else { return }
        if snapshot.familyNames != index.families.map(\.name) {
            fatalError("the mapped snapshot lists other families than the index it was written from")
        }
        if faces != index.faces {
            fatalError("the mapped snapshot lists other faces than the index it was written from")
        }
        for (mapped, stored) in zip(families, index.families) where mapped.faces != stored.faces {
            fatalError("the mapped snapshot lists other faces for \(stored.name) than the index it was written from")
        }
    }

    /// `face` by PostScript and full name (in the case given and changed), family lookup by
    /// name and by key, one family's faces, and the suggestions for an unknown name.
    static func lookUp(_ snapshot: MappedSnapshot, name: String, unchanged index: FontIndex?) {
        for spelling in [name, name.uppercased()] {
            let byPostscript = snapshot.face(postscriptName: spelling)
            let byFullName = snapshot.face(fullName: spelling)
            if let index,
                byPostscript != index.face(postscriptName: spelling) || byFullName != index.face(fullName: spelling)
            {
                fatalError("the mapped snapshot found another face for \(spelling) than the index it was written from")
            }
        }
        let family = snapshot.family(named: name)
        _ = snapshot.family(key: FamilyKey(name))
        _ = family?.faces
        _ = family?.files
        _ = snapshot.servesInFull(family: name)
        if family == nil { _ = snapshot.suggestions(for: name) }
        if let index, family?.faces != index.family(named: name)?.faces {
            fatalError("the mapped snapshot found another family for \(name) than the index it was written from")
        }
    }

    /// The candidates of a family (its faces in the order CSS tries them) for a few requests.
    static func candidates(_ snapshot: MappedSnapshot, family name: String, unchanged index: FontIndex?) {
        guard let family = snapshot.family(named: name) else { return }
        let faces = family.faces
        for (i, weight) in [100, 400, 700, 1000].enumerated() {
            let style = styles[i % styles.count]
            let ordered = FaceMatcher.ordered(faces, for: FaceMatcher.Request(width: 100, style: style, weight: weight))
            guard let index else { continue }
            let query = ResolveQuery(family: name, weight: FontWeight(weight) ?? .regular, style: style)
            let expected = try? Resolver(index: index).candidates(query).candidates.map(\.face)
            if ordered.map(\.face) != expected {
                fatalError("the mapped snapshot ordered the candidates of \(query) differently from the index")
            }
        }
    }
}

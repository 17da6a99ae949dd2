/// Splits a text into runs and gives each run a face that covers it, at the asked weight and style.
///
/// The rule is CSS's (CSS Fonts 4, "Cluster matching"), as browsers apply it: grapheme clusters
/// are never split (Swift's `Character` is an extended grapheme cluster), and each cluster goes
/// to the first family of the stack that covers it whole, at every position of the text — also
/// after a run in a fallback face, so spaces, digits and punctuation go with the first family
/// when it has them. Only a cluster no family of the stack covers goes to system fallback, which
/// keeps the open run's face while it covers the cluster, then a face it already gave this text
/// (not for Han), then takes the generic families of fontconfig's configuration, then every
/// registered family by coverage. Adjacent clusters with
/// the same face make one run. Inside each family the face is the one ``Resolver`` gives for
/// the same weight, style, width and Bold Text, so Bold Text is applied with that family's own
/// weights. Colour emoji prefer colour faces; Han prefers the language's region (`ja` → JP).
public struct TextResolver: Sendable {
    /// The resolver whose faces and rules are used.
    public let resolver: Resolver
    /// The most bytes of UTF-8 text one call takes.
    public static let maximumTextBytes = 256 * 1024
    /// The coverage index for calls without a plan cache: built on the first call that needs it,
    /// kept for the resolver's life (plans are not kept).
    private let coverage = FallbackPlanCache(capacity: 0)

    /// Creates a text resolver.
    ///
    /// - Parameter resolver: the faces, rules and system fallback to use.
    public init(resolver: Resolver) {
        self.resolver = resolver
    }

    /// Resolves a text.
    ///
    /// - Parameters:
    ///   - text: the text (at most ``maximumTextBytes`` UTF-8 bytes).
    ///   - query: the family stack, style and language.
    ///   - cache: plans and the coverage index kept across calls, or `nil` to plan afresh (the
    ///     coverage index is then kept by this resolver, built by the first call that needs it).
    /// - Returns: the runs, the code points nothing covers, and the Han language assumed.
    /// - Throws: ``TextResolveError/textTooLong(bytes:limit:)`` over the limit, ``TextResolveError/emptyStack``
    ///   without a family, ``TextResolveError/resolve(_:)`` in strict mode when a named family is unknown.
    public func resolve(_ text: String, _ query: TextQuery, cache: FallbackPlanCache? = nil) throws(TextResolveError)
        -> TextResolution
    {
        let bytes = text.utf8.count
        guard bytes <= Self.maximumTextBytes else {
            throw .textTooLong(bytes: bytes, limit: Self.maximumTextBytes)
        }
        let generation = resolver.index.generation
        var plan =
            cache?.take(query, generation: generation)
            ?? FallbackPlan(resolver: resolver, query: query, coverage: cache ?? coverage)
        plan.begin(coverage: cache ?? coverage)
        try plan.checkStrict()
        defer { cache?.put(plan, for: query, generation: generation) }
        var builder = RunBuilder(firstFamily: plan.firstFamilyKey)
        var missing: [UInt32] = []
        var seenMissing = Set<UInt32>()
        var sawHan = false
        let stack = plan.stackFaces()
        let coverages = stack.map(\.coverage)
        let colors = stack.map(\.isColor)
        // System fallback choices of this text, their coverage and colour kept apart for the check.
        var used: [FallbackChoice] = []
        var usedCoverages: [CharacterCoverage] = []
        var usedColors: [Bool] = []
        // The first face of the stack that draws each ASCII character (`noFace`: none), so a run
        // of ASCII costs one table look-up per byte, no segmentation and no bisection.
        let asciiFaces = asciiStackFaces(coverages)
        func place(_ cluster: Character) {
            let kind = ClusterKind.of(cluster)
            if kind == .han { sawHan = true }
            let colorOnly = kind == .colorEmoji
            if let position = firstStackFace(drawing: cluster, colorOnly: colorOnly, coverages, colors) {
                // The choice (a whole resolve answer) is copied only when a run opens.
                if builder.isOpen(stackFace: position) {
                    builder.extend(cluster)
                } else {
                    builder.append(cluster, stackFace: position, choice: stack[position].choice)
                }
                return
            }
            // System fallback: the open run's face while it covers the cluster (a fallback font
            // draws as much of the rest as it can), then the plan's search.
            if let coverage = builder.currentCoverage, colorOnly == builder.currentIsColor, coverage.covers(cluster) {
                builder.extend(cluster)
                return
            }
            // A face system fallback already gave this text draws the later clusters it covers,
            // as a browser shapes what the stack left with the fallback font it found first
            // (not for Han, whose face the language picks, nor across colour and text).
            if kind != .han,
                let reused = usedCoverages.indices.first(where: {
                    usedColors[$0] == colorOnly && usedCoverages[$0].covers(cluster)
                })
            {
                builder.append(cluster, choice: used[reused])
                return
            }
            if let choice = plan.choose(for: cluster, kind: kind) {
                builder.append(cluster, choice: choice)
                if kind != .han {
                    // Not in the list yet, as no face of it covered the cluster (a text face for
                    // a colour cluster may repeat one: that costs a check, nothing else).
                    used.append(choice)
                    usedCoverages.append(choice.face.coverage)
                    usedColors.append(choice.face.isColor)
                }
                return
            }
            for scalar in cluster.unicodeScalars
            where !CharacterCoverage.isIgnorable(scalar) && !plan.anyFaceCovers(scalar) {
                if seenMissing.insert(scalar.value).inserted { missing.append(scalar.value) }
            }
            if builder.hasRun {
                builder.extend(cluster)
            } else if let first = plan.firstResolution() {
                builder.append(
                    cluster,
                    choice: FallbackChoice(
                        resolution: first, reason: "no registered face covers it; kept in \(first.face.family)"))
            }
        }
        // A segment between standalone ASCII bytes, cut at sure boundaries (two plain scalars,
        // ``SimpleBoundaries``): a piece of one scalar is its cluster, longer pieces go through
        // Swift's segmentation.
        let scalars = text.unicodeScalars
        func placePiece(_ piece: Range<String.Index>) {
            guard piece.lowerBound < piece.upperBound else { return }
            if scalars.index(after: piece.lowerBound) == piece.upperBound {
                place(Character(scalars[piece.lowerBound]))
            } else {
                for cluster in text[piece] { place(cluster) }
            }
        }
        func placeSegment(_ range: Range<String.Index>) {
            var pieceStart = range.lowerBound
            var position = range.lowerBound
            var previousPlain = false
            while position < range.upperBound {
                let plain = SimpleBoundaries.isPlain(scalars[position].value)
                if plain && previousPlain {
                    placePiece(pieceStart..<position)
                    pieceStart = position
                }
                previousPlain = plain
                position = scalars.index(after: position)
            }
            placePiece(pieceStart..<range.upperBound)
        }
        // UAX #29 breaks between two ASCII scalars except CR LF: an ASCII byte with an ASCII byte
        // (or an edge of the text) on each side is a cluster of its own. Everything else goes
        // through Swift's grapheme segmentation, in segments that start and end at such bytes.
        let utf8 = text.utf8
        var segment = utf8.startIndex
        var index = utf8.startIndex
        var previous: UInt8 = 0
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            let following: UInt8 = next < utf8.endIndex ? utf8[next] : 0
            defer {
                previous = byte
                index = next
            }
            guard byte < 0x80, previous < 0x80, following < 0x80, byte != 0x0D, !(previous == 0x0D && byte == 0x0A)
            else { continue }
            let position = asciiFaces[Int(byte)]
            guard position != noFace else { continue }
            if segment < index { placeSegment(segment..<index) }
            segment = next
            if builder.isOpen(stackFace: Int(position)) {
                builder.extendASCII()
            } else {
                builder.append(
                    Character(Unicode.Scalar(byte)), stackFace: Int(position), choice: stack[Int(position)].choice)
            }
        }
        if segment < utf8.endIndex { placeSegment(segment..<utf8.endIndex) }
        let assumed = sawHan && query.language.flatMap(HanRegion.region(for:)) == nil ? HanRegion.assumedLanguage : nil
        return TextResolution(runs: builder.finish(text: text), missing: missing, assumedLanguage: assumed)
    }
}

/// No face of the stack draws the ASCII character (in `asciiStackFaces`).
private let noFace = UInt8.max

/// For each ASCII character, the position of the first text face of the stack that maps it, or `noFace`.
private func asciiStackFaces(_ coverages: [CharacterCoverage]) -> [UInt8] {
    (0..<128).map { value in
        // An ASCII character alone is never a colour emoji cluster: any face of the stack may draw it.
        let position = coverages.indices.first { coverages[$0].contains(UInt32(value)) }
        // Past 254 faces (a stack of many generic expansions) the byte takes the general path.
        return position.flatMap { $0 < Int(noFace) ? UInt8($0) : nil } ?? noFace
    }
}

/// The position of the first face of the stack that draws the cluster (in colour when `colorOnly`).
private func firstStackFace(
    drawing cluster: Character, colorOnly: Bool, _ coverages: [CharacterCoverage], _ colors: [Bool]
) -> Int? {
    for position in coverages.indices where (!colorOnly || colors[position]) && coverages[position].covers(cluster) {
        return position
    }
    return nil
}

/// The face chosen for a cluster and why.
struct FallbackChoice: Sendable {
    /// The resolve answer of the family chosen, shared with the runs it draws.
    let shared: SharedResolution
    /// Why, in words.
    let reason: String

    init(resolution: Resolution, reason: String) {
        shared = SharedResolution(resolution)
        self.reason = reason
    }

    /// The resolve answer of the family chosen.
    var resolution: Resolution { shared.value }
    /// The face.
    var face: FaceRecord { shared.value.face }
}

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
        try resolve(text, query, cache: cache, swiftSegmentation: false)
    }

    /// Resolves a text, with every cluster cut by Swift's segmentation when `swiftSegmentation`
    /// (what the scalar-level loop must agree with, for tests).
    func resolve(_ text: String, _ query: TextQuery, cache: FallbackPlanCache?, swiftSegmentation: Bool)
        throws(TextResolveError) -> TextResolution
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
        do {
            try plan.checkStrict()
        } catch {
            cache?.put(plan, for: query, generation: generation)
            throw error
        }
        var placer = ClusterPlacer(plan: plan, bytes: bytes)
        defer { cache?.put(placer.plan, for: query, generation: generation) }
        // The clusters, cut at the scalar level (``ClusterScanner``); a stretch with a ZWJ,
        // a flag or another hard scalar is cut by Swift's segmentation.
        var copy = text
        let runs = copy.withUTF8 { bytes in
            var scanner = ClusterScanner(bytes)
            // For tests: the whole text as one piece for Swift's segmentation.
            var whole: ClusterScanner.Item? = bytes.isEmpty ? nil : .piece(start: 0, end: bytes.count)
            func next() -> ClusterScanner.Item? {
                guard swiftSegmentation else { return scanner.next() }
                defer { whole = nil }
                return whole
            }
            while let item = next() {
                switch item {
                case .cluster(let start, let end, let utf16, let first, let single):
                    if single && first >= 0x20 && first < 0x7F && placer.placeASCII(first) { continue }
                    let scalar = Unicode.Scalar(first).unsafelyUnwrapped
                    if single {
                        placer.place(
                            CollectionOfOne(scalar), first: scalar, single: true, utf8: end - start, utf16: utf16,
                            in: text, at: start)
                    } else {
                        placer.place(
                            UTF8Scalars(bytes, from: start, to: end), first: scalar, single: false, utf8: end - start,
                            utf16: utf16, in: text, at: start)
                    }
                case .piece(let start, let end):
                    let utf8 = text.utf8
                    let from = utf8.index(utf8.startIndex, offsetBy: start)
                    let to = utf8.index(from, offsetBy: end - start)
                    var offset = start
                    for cluster in text[from..<to] {
                        let scalars = cluster.unicodeScalars
                        let length = cluster.utf8.count
                        defer { offset += length }
                        guard let first = scalars.first else { continue }
                        placer.place(
                            scalars, first: first, single: length == first.utf8.count, utf8: length,
                            utf16: cluster.utf16.count, in: text, at: offset)
                    }
                }
            }
            let runs = placer.builder.finish(text: text)
            placer.plan.lastRunCount = min(runs.count, 4_096)
            return runs
        }
        let assumed =
            placer.sawHan && query.language.flatMap(HanRegion.region(for:)) == nil ? HanRegion.assumedLanguage : nil
        return TextResolution(runs: runs, missing: placer.missing, assumedLanguage: assumed)
    }

    /// The cluster at UTF-8 offsets of a text, as a `Character`.
    static func cluster(of text: String, from start: Int, to end: Int) -> Character {
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start)
        let to = utf8.index(from, offsetBy: end - start)
        return text[from..<to].first ?? " "
    }
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

/// Gives each cluster of one ``TextResolver`` call its face and adds it to the runs: the CSS
/// rule per cluster, on a cluster given as its scalars and lengths (no `Character` on the
/// common path; issue 29 item 4).
struct ClusterPlacer {
    /// The call's plan (given back to the cache after the call).
    var plan: FallbackPlan
    /// The runs so far.
    var builder: RunBuilder
    /// The code points nothing covers, each once, in order.
    var missing: [UInt32] = []
    /// Whether a Han cluster was met.
    var sawHan = false
    private var seenMissing = Set<UInt32>()
    /// The stack's faces, and their coverage probes and colour kept apart for the per-cluster check.
    private let stack: [StackFace]
    private var stackProbes: [CoverageProbe]
    private let colors: [Bool]
    /// System fallback choices of this text, with their coverage probes and colour.
    private var used: [FallbackChoice] = []
    private var usedProbes: [CoverageProbe] = []
    private var usedColors: [Bool] = []
    /// The first face of the stack that draws each ASCII character (`noFace`: none), so a
    /// printable ASCII cluster costs one table look-up.
    private let asciiFaces: [UInt8]
    /// The scalar classes, for whether a scalar is default-ignorable.
    private let classes = ScalarClasses.table

    /// No face of the stack draws the ASCII character (in ``asciiFaces``).
    private static let noFace = UInt8.max

    /// Starts a call with the plan's stack, for a text of `bytes` UTF-8 bytes (a run has one at least).
    init(plan: FallbackPlan, bytes: Int) {
        var plan = plan
        builder = RunBuilder(firstFamily: plan.firstFamilyKey, expectedRuns: min(plan.lastRunCount, bytes))
        stack = plan.stackFaces()
        self.plan = plan
        stackProbes = stack.map { CoverageProbe($0.coverage) }
        colors = stack.map(\.isColor)
        let coverages = stack.map(\.coverage)
        asciiFaces = (0..<128).map { value in
            // An ASCII character alone is never a colour emoji cluster: any face of the stack may draw it.
            let position = coverages.indices.first { coverages[$0].contains(UInt32(value)) }
            // Past 254 faces (a stack of many generic expansions) the byte takes the general path.
            return position.flatMap { $0 < Int(Self.noFace) ? UInt8($0) : nil } ?? Self.noFace
        }
    }

    /// Places a printable ASCII character that is a cluster of its own; `false` when no face of
    /// the stack maps it (the general path then places it).
    @inline(__always)
    mutating func placeASCII(_ value: UInt32) -> Bool {
        let position = asciiFaces[Int(value)]
        guard position != Self.noFace else { return false }
        placeInStack(Int(position), utf8: 1, utf16: 1)
        return true
    }

    @inline(__always)
    private mutating func placeInStack(_ position: Int, utf8: Int, utf16: Int) {
        if builder.isOpen(stackFace: position) {
            builder.extend(utf8: utf8, utf16: utf16)
        } else {
            builder.append(
                utf8: utf8, utf16: utf16, stackFace: position, choice: stack[position].choice,
                probe: stackProbes[position])
        }
    }

    /// Places one cluster: the first face of the stack that draws it whole; else system
    /// fallback, which keeps the open run's face while it covers the cluster, then a face it
    /// already gave this text (not for Han), then the plan's search.
    ///
    /// - Parameters:
    ///   - scalars: the cluster's scalars.
    ///   - first: its first scalar.
    ///   - single: whether `first` is the whole cluster.
    ///   - utf8: its length in UTF-8 bytes.
    ///   - utf16: its length in UTF-16 code units.
    ///   - text: the whole text, the cluster cut from it as a `Character` only for the plan's
    ///     search (borrowed: a closure capturing it cost a retain and a release per cluster).
    ///   - start: the cluster's UTF-8 offset in `text`.
    mutating func place<S: Sequence<Unicode.Scalar>>(
        _ scalars: S, first: Unicode.Scalar, single: Bool, utf8: Int, utf16: Int, in text: String, at start: Int
    ) {
        let kind = ClusterKind.of(scalars, first: first, single: single, classes)
        if kind == .han { sawHan = true }
        let colorOnly = kind == .colorEmoji
        for position in stackProbes.indices
        where (!colorOnly || colors[position]) && stackProbes[position].covers(scalars, classes) {
            // The choice (a whole resolve answer) is copied only when a run opens.
            placeInStack(position, utf8: utf8, utf16: utf16)
            return
        }
        // System fallback: the open run's face while it covers the cluster (a fallback font
        // draws as much of the rest as it can), then the plan's search.
        if colorOnly == builder.currentIsColor, builder.currentCovers(scalars, classes) {
            builder.extend(utf8: utf8, utf16: utf16)
            return
        }
        // A face system fallback already gave this text draws the later clusters it covers,
        // as a browser shapes what the stack left with the fallback font it found first
        // (not for Han, whose face the language picks, nor across colour and text).
        if kind != .han {
            for reused in usedProbes.indices
            where usedColors[reused] == colorOnly && usedProbes[reused].covers(scalars, classes) {
                builder.append(utf8: utf8, utf16: utf16, choice: used[reused], probe: usedProbes[reused])
                return
            }
        }
        let character = TextResolver.cluster(of: text, from: start, to: start + utf8)
        if let choice = plan.choose(for: character, kind: kind) {
            builder.append(utf8: utf8, utf16: utf16, choice: choice)
            if kind != .han {
                // Not in the list yet, as no face of it covered the cluster (a text face for
                // a colour cluster may repeat one: that costs a check, nothing else).
                used.append(choice)
                usedProbes.append(CoverageProbe(choice.face.coverage))
                usedColors.append(choice.face.isColor)
            }
            return
        }
        for scalar in scalars where !CharacterCoverage.isIgnorable(scalar) && !plan.anyFaceCovers(scalar) {
            if seenMissing.insert(scalar.value).inserted { missing.append(scalar.value) }
        }
        if builder.hasRun {
            builder.extend(utf8: utf8, utf16: utf16)
        } else if let first = plan.firstResolution() {
            builder.append(
                utf8: utf8, utf16: utf16,
                choice: FallbackChoice(
                    resolution: first, reason: "no registered face covers it; kept in \(first.face.family)"))
        }
    }
}

/// A variable font's `MVAR` deltas for the metrics a face record carries, with the `avar` maps
/// and variation regions they need: enough to compute ``FaceMetrics`` at any coordinates.
///
/// The sandboxed parser builds it from the tables (the native parser); it keeps only the
/// regions the seven metric tags use and each tag's `(region, delta)` pairs, so what crosses the
/// parser's pipe and lands in the index file is a few hundred integers at most. Values are the
/// tables' own integers: coordinates and `avar` positions in F2Dot14 units (1 = 16384).
///
/// ``metrics(at:axes:)`` follows fontTools' instancer (`instantiateVariableFont`): the user
/// coordinate is normalized (`normalizeValue`), mapped through `avar` (`piecewiseLinearMap`) and
/// quantized to F2Dot14; each region's scalar (`supportScalar`, OpenType rules) times its delta
/// is summed in floating point and the sum rounded once, half up (`otRound`), then added to the
/// default value (`setMvarDeltas`). `hhea` follows the typo values when the default face has
/// them equal (`verticalMetricsKeptInSync`).
package struct MetricsVariation: Sendable, Hashable {
    /// The metrics `MVAR` varies, in the order of ``deltas``.
    package enum Metric: Int, CaseIterable, Sendable {
        case typoAscender, typoDescender, typoLineGap, winAscent, winDescent, capHeight, xHeight

        /// The `MVAR` value tag.
        package var tag: String { ["hasc", "hdsc", "hlgp", "hcla", "hcld", "cpht", "xhgt"][rawValue] }
    }

    /// The default face's metrics, to which the deltas are added.
    package var base: FaceMetrics
    /// Each `fvar` axis's `avar` segment map as flattened `(from, to)` pairs; empty for none.
    package var avar: [[Int]]
    /// Each region kept, as flattened `(start, peak, end)` triples, one per `fvar` axis.
    package var regions: [[Int]]
    /// Each ``Metric``'s flattened `(region, delta)` pairs (regions index ``regions``).
    package var deltas: [[Int]]

    /// Creates a variation from its parts.
    package init(base: FaceMetrics, avar: [[Int]], regions: [[Int]], deltas: [[Int]]) {
        self.base = base
        self.avar = avar
        self.regions = regions
        self.deltas = deltas
    }

    /// The metrics at `coordinates` (user values by axis tag; an axis not named is at its default).
    ///
    /// - Parameters:
    ///   - coordinates: the axis values set on the face.
    ///   - axes: the file's `fvar` axes, in order.
    /// - Returns: the default metrics with the `MVAR` deltas at those coordinates added.
    package func metrics(at coordinates: [VariationSetting], axes: [VariationAxis]) -> FaceMetrics {
        let location = axes.enumerated().map { i, axis in
            let value = coordinates.first { $0.tag == axis.tag }?.value ?? axis.defaultValue
            var n = Self.normalize(value, axis)
            if i < avar.count, !avar[i].isEmpty { n = Self.piecewiseLinearMap(n, avar[i]) }
            return (n * 16384 + 0.5).rounded(.down) / 16384
        }
        var values = [
            base.typo.ascender, base.typo.descender, base.typo.lineGap, base.win.ascent, base.win.descent,
            base.capHeight, base.xHeight,
        ]
        for metric in Metric.allCases where metric.rawValue < deltas.count {
            let pairs = deltas[metric.rawValue]
            var sum = 0.0
            for p in stride(from: 0, to: pairs.count - 1, by: 2) where pairs[p] >= 0 && pairs[p] < regions.count {
                sum += scalar(region: regions[pairs[p]], at: location) * Double(pairs[p + 1])
            }
            // Bounded before the conversion: a damaged index file must not trap on NaN or infinity.
            guard sum.isFinite else { continue }
            let delta = Int((min(1e9, max(-1e9, sum)) + 0.5).rounded(.down))
            values[metric.rawValue] = min(65535, max(-32768, values[metric.rawValue] + delta))
        }
        var m = base
        m.typo = LineMetrics(ascender: values[0], descender: values[1], lineGap: values[2])
        m.win = WindowsMetrics(ascent: values[3], descent: values[4])
        m.capHeight = values[5]
        m.xHeight = values[6]
        if base.hhea == base.typo { m.hhea = m.typo }
        return m
    }

    /// fontTools' `normalizeValue`: −1…0…1 from the axis minimum, default and maximum, clamped.
    static func normalize(_ value: Double, _ axis: VariationAxis) -> Double {
        let v = min(axis.maximum, max(axis.minimum, value))
        if v == axis.defaultValue { return 0 }
        if v < axis.defaultValue {
            return axis.defaultValue == axis.minimum ? 0 : (v - axis.defaultValue) / (axis.defaultValue - axis.minimum)
        }
        return axis.maximum == axis.defaultValue ? 0 : (v - axis.defaultValue) / (axis.maximum - axis.defaultValue)
    }

    /// fontTools' `piecewiseLinearMap` over an `avar` segment map (flattened F2Dot14 pairs).
    static func piecewiseLinearMap(_ v: Double, _ map: [Int]) -> Double {
        var points: [(from: Double, to: Double)] = []
        for p in stride(from: 0, to: map.count - 1, by: 2) {
            points.append((Double(map[p]) / 16384, Double(map[p + 1]) / 16384))
        }
        guard !points.isEmpty else { return v }
        if let exact = points.first(where: { $0.from == v }) { return exact.to }
        let lowest = points.min { $0.from < $1.from }!, highest = points.max { $0.from < $1.from }!
        if v < lowest.from { return v + lowest.to - lowest.from }
        if v > highest.from { return v + highest.to - highest.from }
        let a = points.filter { $0.from < v }.max { $0.from < $1.from }!
        let b = points.filter { $0.from > v }.min { $0.from < $1.from }!
        return a.to + (b.to - a.to) * (v - a.from) / (b.from - a.from)
    }

    /// A region's scalar at a normalized location (OpenType's rules, fontTools' `supportScalar`).
    private func scalar(region: [Int], at location: [Double]) -> Double {
        var scalar = 1.0
        for (i, v) in location.enumerated() where 3 * i + 2 < region.count {
            let start = Double(region[3 * i]) / 16384, peak = Double(region[3 * i + 1]) / 16384
            let end = Double(region[3 * i + 2]) / 16384
            if peak == 0 || start > peak || peak > end || (start < 0 && end > 0) || v == peak { continue }
            if v <= start || end <= v { return 0 }
            scalar *= v < peak ? (v - start) / (peak - start) : (end - v) / (end - peak)
        }
        return scalar
    }
}

extension MetricsVariation {
    /// The variation as text for the index file and the parser's reply: integers separated by
    /// spaces (the twelve base values, the axis count, each axis's `avar` pairs with their count,
    /// the region count and triples, then each metric's pairs with their count).
    package var encoded: String {
        var out = SnapshotMetricValues.values(base)
        out.append(avar.count)
        for map in avar { out.append(map.count); out += map }
        out.append(regions.count)
        for region in regions { out.append(region.count); out += region }
        out.append(deltas.count)
        for pairs in deltas { out.append(pairs.count); out += pairs }
        return out.map(String.init).joined(separator: " ")
    }

    /// Reads what ``encoded`` wrote; `nil` for anything else.
    package init?(encoded text: String) {
        var values: [Int] = []
        for word in text.split(separator: " ") {
            guard let v = Int(word) else { return nil }
            values.append(v)
        }
        var at = 0
        func next() -> Int? {
            guard at < values.count else { return nil }
            defer { at += 1 }
            return values[at]
        }
        func list() -> [[Int]]? {
            guard let count = next(), count >= 0, count <= values.count - at else { return nil }
            var lists: [[Int]] = []
            for _ in 0..<count {
                guard let n = next(), n >= 0, n <= values.count - at else { return nil }
                lists.append(Array(values[at..<at + n]))
                at += n
            }
            return lists
        }
        guard values.count >= 12 else { return nil }
        let base = SnapshotMetricValues.metrics(Array(values[0..<12]))
        at = 12
        guard let avar = list(), let regions = list(), let deltas = list(), at == values.count else { return nil }
        self.init(base: base, avar: avar, regions: regions, deltas: deltas)
    }
}

/// The twelve integers of ``FaceMetrics`` in one order, for the variation's text form.
enum SnapshotMetricValues {
    /// The values: units per em, `hhea`, typo, Windows, the typo bit, cap height, x-height.
    static func values(_ m: FaceMetrics) -> [Int] {
        [
            m.unitsPerEm, m.hhea.ascender, m.hhea.descender, m.hhea.lineGap, m.typo.ascender, m.typo.descender,
            m.typo.lineGap, m.win.ascent, m.win.descent, m.useTypoMetrics ? 1 : 0, m.capHeight, m.xHeight,
        ]
    }

    /// Metrics from twelve values in ``values(_:)`` order.
    static func metrics(_ v: [Int]) -> FaceMetrics {
        FaceMetrics(
            unitsPerEm: v[0], hhea: LineMetrics(ascender: v[1], descender: v[2], lineGap: v[3]),
            typo: LineMetrics(ascender: v[4], descender: v[5], lineGap: v[6]),
            win: WindowsMetrics(ascent: v[7], descent: v[8]), useTypoMetrics: v[9] != 0, capHeight: v[10],
            xHeight: v[11])
    }
}

/// What a face record knows of its font's `MVAR`: the variation, or why the table was ignored.
///
/// Kept out of the record's equality and JSON forms, as its coverage is: it follows from the
/// file, which equality compares.
package struct MetricsVariationSlot: Sendable, Hashable {
    /// The variation, when the font has a usable `MVAR`.
    package var variation: MetricsVariation?
    /// Why the font's `MVAR` (or `avar`) was ignored, when it was malformed.
    package var problem: String?

    /// Always equal: see the type's documentation.
    package static func == (lhs: Self, rhs: Self) -> Bool { true }

    /// Adds nothing to the hash.
    package func hash(into hasher: inout Hasher) {}

    /// The slot as one string: empty for nothing, `!` and the reason for a problem, else the variation.
    package var encoded: String {
        if let problem { return "!" + problem }
        return variation?.encoded ?? ""
    }

    /// Reads what ``encoded`` wrote (a damaged variation reads as none).
    package init(encoded text: String) {
        if text.hasPrefix("!") {
            problem = String(text.dropFirst())
        } else if !text.isEmpty {
            variation = MetricsVariation(encoded: text)
        }
    }

    /// Creates a slot.
    package init(variation: MetricsVariation? = nil, problem: String? = nil) {
        self.variation = variation
        self.problem = problem
    }
}

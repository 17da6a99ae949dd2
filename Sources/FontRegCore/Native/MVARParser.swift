/// Why a font's `MVAR` or `avar` table was ignored: the face keeps its default metrics at every coordinate.
enum MVARProblem: Error, Equatable, CustomStringConvertible {
    /// The table ends before a structure it declares.
    case truncated(table: String, what: String)
    /// An offset points outside the table.
    case offsetOutOfRange(table: String, what: String)
    /// A count is above what the parser accepts.
    case tooMany(table: String, what: String, count: Int, limit: Int)
    /// A version the parser does not read.
    case unsupportedVersion(table: String, version: Int)
    /// The region list's axis count is not the `fvar` axis count.
    case axisCountMismatch(table: String, found: Int, expected: Int)

    var description: String {
        switch self {
        case .truncated(let table, let what): "\(table) ignored: truncated in \(what)"
        case .offsetOutOfRange(let table, let what): "\(table) ignored: \(what) points outside the table"
        case .tooMany(let table, let what, let count, let limit):
            "\(table) ignored: \(count) \(what), more than the \(limit) read"
        case .unsupportedVersion(let table, let version): "\(table) ignored: version \(version) is not read"
        case .axisCountMismatch(let table, let found, let expected):
            "\(table) ignored: \(found) axes in its regions, the font has \(expected)"
        }
    }
}

/// Reads the `MVAR` (and `avar`) bytes of a variable font into a ``MetricsVariation``.
///
/// Every read is bounds-checked and every count capped, so a hostile table costs at most a few
/// hundred kilobytes of reading and gives a ``MVARProblem``, never a trap. Only the seven tags of
/// ``MetricsVariation/Metric`` are kept, with the regions they use.
enum MVARParser {
    /// The largest `MVAR` or `avar` table read.
    static let maximumTableSize = 1 << 20
    /// The most value records read.
    static let maximumValueRecords = 512
    /// The most regions one metric may use, and the most kept in all.
    static let maximumRegions = 256
    /// The most `avar` segment map entries per axis.
    static let maximumSegments = 256
    /// The most axes.
    static let maximumAxes = 64

    /// The variation of a face, or `nil` when the bytes have no value record of a kept tag.
    ///
    /// - Parameters:
    ///   - mvar: the `MVAR` table's bytes.
    ///   - avar: the `avar` table's bytes, when the font has one.
    ///   - axisCount: the `fvar` axis count.
    ///   - base: the default face's metrics.
    /// - Throws: ``MVARProblem`` for a malformed or oversized table.
    static func parse(mvar: [UInt8], avar: [UInt8]?, axisCount: Int, base: FaceMetrics) throws(MVARProblem)
        -> MetricsVariation?
    {
        guard axisCount <= maximumAxes else {
            throw .tooMany(table: "MVAR", what: "axes", count: axisCount, limit: maximumAxes)
        }
        let maps = try avar.map { bytes throws(MVARProblem) in try segmentMaps(bytes, axisCount: axisCount) } ?? []
        let t = Bytes(data: mvar, table: "MVAR")
        guard mvar.count <= maximumTableSize else {
            throw .tooMany(table: "MVAR", what: "bytes", count: mvar.count, limit: maximumTableSize)
        }
        let major = try t.u16(0, "the header")
        guard major == 1 else { throw .unsupportedVersion(table: "MVAR", version: major) }
        let recordSize = try t.u16(6, "the header"), recordCount = try t.u16(8, "the header")
        let storeOffset = try t.u16(10, "the header")
        guard recordCount <= maximumValueRecords else {
            throw .tooMany(table: "MVAR", what: "value records", count: recordCount, limit: maximumValueRecords)
        }
        guard recordCount == 0 || recordSize >= 8 else { throw .truncated(table: "MVAR", what: "a value record") }
        var wanted: [(metric: Int, outer: Int, inner: Int)] = []
        for r in 0..<recordCount {
            let at = 12 + r * recordSize
            let tag = String(decoding: try t.slice(at, 4, "a value record"), as: UTF8.self)
            guard let metric = MetricsVariation.Metric.allCases.first(where: { $0.tag == tag }) else { continue }
            wanted.append((metric.rawValue, try t.u16(at + 4, "a value record"), try t.u16(at + 6, "a value record")))
        }
        guard !wanted.isEmpty, storeOffset != 0 else { return nil }
        let store = try ItemVariationStore(t, at: storeOffset, axisCount: axisCount)
        var regions: [[Int]] = []
        var kept: [Int: Int] = [:]
        var deltas = Array(repeating: [Int](), count: MetricsVariation.Metric.allCases.count)
        for (metric, outer, inner) in wanted where deltas[metric].isEmpty {
            for (region, delta) in try store.row(outer: outer, inner: inner) where delta != 0 {
                if kept[region] == nil {
                    guard regions.count < maximumRegions else {
                        throw .tooMany(table: "MVAR", what: "regions", count: regions.count + 1, limit: maximumRegions)
                    }
                    kept[region] = regions.count
                    regions.append(try store.region(region))
                }
                deltas[metric] += [kept[region]!, delta]
            }
        }
        return MetricsVariation(base: base, avar: maps, regions: regions, deltas: deltas)
    }

    /// The `avar` segment maps, one per axis (flattened `(from, to)` F2Dot14 pairs).
    static func segmentMaps(_ bytes: [UInt8], axisCount: Int) throws(MVARProblem) -> [[Int]] {
        let t = Bytes(data: bytes, table: "avar")
        guard bytes.count <= maximumTableSize else {
            throw .tooMany(table: "avar", what: "bytes", count: bytes.count, limit: maximumTableSize)
        }
        let major = try t.u16(0, "the header")
        guard major == 1 || major == 2 else { throw .unsupportedVersion(table: "avar", version: major) }
        let count = try t.u16(6, "the header")
        guard count == axisCount else { throw .axisCountMismatch(table: "avar", found: count, expected: axisCount) }
        var at = 8
        var maps: [[Int]] = []
        for _ in 0..<count {
            let n = try t.u16(at, "a segment map")
            guard n <= maximumSegments else {
                throw .tooMany(table: "avar", what: "segment map entries", count: n, limit: maximumSegments)
            }
            var map: [Int] = []
            for k in 0..<n {
                map += [try t.i16(at + 2 + 4 * k, "a segment map"), try t.i16(at + 4 + 4 * k, "a segment map")]
            }
            // A map of only the three required entries (−1, 0, 1 to themselves) changes nothing.
            maps.append(map == [-16384, -16384, 0, 0, 16384, 16384] ? [] : map)
            at += 2 + 4 * n
        }
        return maps
    }

    /// Big-endian reads that throw instead of trapping.
    struct Bytes {
        let data: [UInt8]
        let table: String

        func slice(_ at: Int, _ n: Int, _ what: String) throws(MVARProblem) -> ArraySlice<UInt8> {
            guard at >= 0, n >= 0, at <= data.count - n else { throw .truncated(table: table, what: what) }
            return data[at..<at + n]
        }
        func u16(_ at: Int, _ what: String) throws(MVARProblem) -> Int {
            let s = try slice(at, 2, what)
            return Int(s[s.startIndex]) << 8 | Int(s[s.startIndex + 1])
        }
        func i16(_ at: Int, _ what: String) throws(MVARProblem) -> Int {
            Int(Int16(truncatingIfNeeded: try u16(at, what)))
        }
        func u32(_ at: Int, _ what: String) throws(MVARProblem) -> Int {
            try u16(at, what) << 16 | u16(at + 2, what)
        }
        func i32(_ at: Int, _ what: String) throws(MVARProblem) -> Int {
            Int(Int32(truncatingIfNeeded: try u32(at, what)))
        }
        func i8(_ at: Int, _ what: String) throws(MVARProblem) -> Int {
            Int(Int8(truncatingIfNeeded: try slice(at, 1, what).first!))
        }
        /// An offset from `base` that must land inside the table.
        func offset(_ base: Int, _ value: Int, _ what: String) throws(MVARProblem) -> Int {
            guard base + value < data.count else { throw .offsetOutOfRange(table: table, what: what) }
            return base + value
        }
    }

    /// The item variation store: its region list and variation data, read on demand.
    struct ItemVariationStore {
        let t: Bytes
        let regionList: Int, regionCount: Int, axisCount: Int
        let dataOffsets: [Int]

        init(_ t: Bytes, at start: Int, axisCount: Int) throws(MVARProblem) {
            self.t = t
            let base = try t.offset(0, start, "the item variation store")
            guard try t.u16(base, "the item variation store") == 1 else {
                throw .unsupportedVersion(table: "MVAR", version: try t.u16(base, "the item variation store"))
            }
            regionList = try t.offset(base, try t.u32(base + 2, "the item variation store"), "the region list")
            let found = try t.u16(regionList, "the region list")
            guard found == axisCount else { throw .axisCountMismatch(table: "MVAR", found: found, expected: axisCount) }
            regionCount = try t.u16(regionList + 2, "the region list")
            self.axisCount = axisCount
            _ = try t.slice(regionList + 4, regionCount * axisCount * 6, "the region list")
            let count = try t.u16(base + 6, "the item variation store")
            var offsets: [Int] = []
            for i in 0..<count {
                offsets.append(
                    try t.offset(base, try t.u32(base + 8 + 4 * i, "the variation data offsets"), "variation data"))
            }
            dataOffsets = offsets
        }

        /// The region's `(start, peak, end)` per axis.
        func region(_ index: Int) throws(MVARProblem) -> [Int] {
            guard index < regionCount else { throw .offsetOutOfRange(table: "MVAR", what: "a region index") }
            var values: [Int] = []
            for k in 0..<(axisCount * 3) {
                values.append(try t.i16(regionList + 4 + index * axisCount * 6 + 2 * k, "a region"))
            }
            return values
        }

        /// One delta set's `(region, delta)` pairs.
        func row(outer: Int, inner: Int) throws(MVARProblem) -> [(Int, Int)] {
            guard outer < dataOffsets.count else {
                throw .offsetOutOfRange(table: "MVAR", what: "a delta-set outer index")
            }
            let at = dataOffsets[outer]
            let itemCount = try t.u16(at, "variation data"), wordField = try t.u16(at + 2, "variation data")
            let regionIndexCount = try t.u16(at + 4, "variation data")
            guard inner < itemCount else { throw .offsetOutOfRange(table: "MVAR", what: "a delta-set inner index") }
            guard regionIndexCount <= MVARParser.maximumRegions else {
                throw .tooMany(
                    table: "MVAR", what: "regions in one variation data", count: regionIndexCount,
                    limit: MVARParser.maximumRegions)
            }
            let long = wordField & 0x8000 != 0, words = wordField & 0x7FFF
            guard words <= regionIndexCount else { throw .truncated(table: "MVAR", what: "variation data") }
            let (big, small) = long ? (4, 2) : (2, 1)
            let rowSize = words * big + (regionIndexCount - words) * small
            let rows = at + 6 + 2 * regionIndexCount
            let rowStart = rows + inner * rowSize
            _ = try t.slice(rowStart, rowSize, "a delta set")
            var pairs: [(Int, Int)] = []
            var p = rowStart
            for k in 0..<regionIndexCount {
                let region = try t.u16(at + 6 + 2 * k, "variation data")
                let delta: Int
                if k < words {
                    delta = long ? try t.i32(p, "a delta set") : try t.i16(p, "a delta set")
                    p += big
                } else {
                    delta = long ? try t.i16(p, "a delta set") : try t.i8(p, "a delta set")
                    p += small
                }
                pairs.append((region, delta))
            }
            return pairs
        }
    }
}

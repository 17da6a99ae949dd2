/// The binary record of a scanned file and its faces: the form in which a sandboxed parser
/// answers (``ParseReply``).
///
/// It was also the scanner's on-disk face cache (`faces.cache`) until issue 13: the registry
/// now keeps its whole index in `index.snapshot` (``SnapshotWriter``, ``MappedSnapshot``),
/// whose file table the scanner checks files against, and deletes a `faces.cache` it finds.
enum FaceCache {
    /// Appends one file's record; also the form in which a sandboxed parser answers (``ParseReply``).
    static func write(_ file: ScannedFile, to w: inout BinaryWriter) {
        w.string(file.path)
        w.uint64(file.identity.device)
        w.uint64(file.identity.inode)
        w.int(Int(file.size))
        w.int(file.modified)
        w.int(file.faces.count)
        for face in file.faces {
            w.string(face.postscriptName); w.string(face.family); w.string(face.subfamily); w.string(face.fullName)
            w.int(face.weight); w.int((face.italic ? 1 : 0) | (face.oblique ? 2 : 0) | (face.isColor ? 4 : 0))
            w.int(face.width); w.int(face.index); w.int(face.instance ?? -1); w.string(face.format)
            w.int(face.axes.count)
            for axis in face.axes {
                w.string(axis.tag); w.double(axis.minimum); w.double(axis.defaultValue); w.double(axis.maximum)
            }
            w.double(face.widthPercent); w.double(face.italicAngle); w.double(face.fontRevision)
            w.int(face.coordinates.count)
            for setting in face.coordinates { w.string(setting.tag); w.double(setting.value) }
            writeMetrics(face.metrics, to: &w)
            writeCoverage(face.coverage, to: &w)
            w.string(face.metricsVariation.encoded)
        }
    }

    /// Reads one file's record, or `nil` when it is damaged.
    static func readFile(_ r: inout BinaryReader) -> ScannedFile? {
        let path = r.string()
        let device = r.uint64(), inode = r.uint64()
        let size = r.int(), modified = r.int()
        guard let faceCount = r.count() else { return nil }
        var faces: [FaceRecord] = []
        for _ in 0..<faceCount {
            let ps = r.string(), family = r.string(), subfamily = r.string(), fullName = r.string()
            let weight = r.int(), flags = r.int(), width = r.int(), index = r.int(), instance = r.int()
            let format = r.string()
            guard let axisCount = r.count() else { return nil }
            var axes: [VariationAxis] = []
            for _ in 0..<axisCount {
                axes.append(
                    VariationAxis(tag: r.string(), minimum: r.double(), defaultValue: r.double(), maximum: r.double()))
            }
            let widthPercent = r.double(), italicAngle = r.double(), fontRevision = r.double()
            guard let coordinateCount = r.count() else { return nil }
            var coordinates: [VariationSetting] = []
            for _ in 0..<coordinateCount { coordinates.append(VariationSetting(tag: r.string(), value: r.double())) }
            let metrics = readMetrics(&r)
            guard let coverage = readCoverage(&r, sharingWith: faces.last?.coverage) else { return nil }
            let variation = r.string()
            faces.append(
                FaceRecord(
                    postscriptName: ps, family: family, subfamily: subfamily, fullName: fullName, weight: weight,
                    italic: flags & 1 != 0, oblique: flags & 2 != 0, width: width, file: path, index: index,
                    instance: instance < 0 ? nil : instance, fileSize: Int64(size), format: format,
                    isColor: flags & 4 != 0, axes: axes, widthPercent: widthPercent, italicAngle: italicAngle,
                    coordinates: coordinates, fontRevision: fontRevision, metrics: metrics))
            faces[faces.count - 1].coverage = coverage
            faces[faces.count - 1].metricsVariation = MetricsVariationSlot(encoded: variation)
        }
        guard !r.failed else { return nil }
        return ScannedFile(
            path: path, identity: FileIdentity(device: device, inode: inode), size: Int64(size), modified: modified,
            faces: faces)
    }
}

extension FaceCache {
    /// Appends a face's metrics: units per em, `hhea`, typo and Windows values, the
    /// `USE_TYPO_METRICS` bit, cap height and x-height.
    static func writeMetrics(_ m: FaceMetrics, to w: inout BinaryWriter) {
        for value in [
            m.unitsPerEm, m.hhea.ascender, m.hhea.descender, m.hhea.lineGap, m.typo.ascender, m.typo.descender,
            m.typo.lineGap, m.win.ascent, m.win.descent, m.useTypoMetrics ? 1 : 0, m.capHeight, m.xHeight,
        ] {
            w.int(value)
        }
    }

    /// Reads what ``writeMetrics(_:to:)`` wrote.
    static func readMetrics(_ r: inout BinaryReader) -> FaceMetrics {
        let v = (0..<12).map { _ in r.int() }
        return FaceMetrics(
            unitsPerEm: v[0], hhea: LineMetrics(ascender: v[1], descender: v[2], lineGap: v[3]),
            typo: LineMetrics(ascender: v[4], descender: v[5], lineGap: v[6]),
            win: WindowsMetrics(ascent: v[7], descent: v[8]), useTypoMetrics: v[9] != 0, capHeight: v[10],
            xHeight: v[11])
    }
}

/// Appends little-endian integers and length-prefixed strings.
struct BinaryWriter {
    var output: [UInt8] = []
    mutating func bytes(_ b: [UInt8]) { output += b }
    mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { output += $0 } }
    mutating func uint64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { output += $0 } }
    mutating func int(_ v: Int) { uint64(UInt64(bitPattern: Int64(v))) }
    mutating func double(_ v: Double) { uint64(v.bitPattern) }
    mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        uint32(UInt32(utf8.count))
        output += utf8
    }
}

/// Reads what ``BinaryWriter`` wrote; a short or damaged input sets ``failed`` instead of trapping.
struct BinaryReader {
    let bytes: [UInt8]
    var offset = 0
    var failed = false

    mutating func bytes(_ n: Int) -> [UInt8] {
        guard !failed, n >= 0, offset + n <= bytes.count else { failed = true; return [] }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }
    mutating func uint32() -> UInt32 {
        guard !failed, offset + 4 <= bytes.count else { failed = true; return 0 }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return v
    }
    mutating func uint64() -> UInt64 {
        guard !failed, offset + 8 <= bytes.count else { failed = true; return 0 }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return v
    }
    mutating func int() -> Int { Int(truncatingIfNeeded: Int64(bitPattern: uint64())) }
    mutating func double() -> Double { Double(bitPattern: uint64()) }
    /// A count that must fit in what is left of the input (each item takes at least a byte).
    mutating func count() -> Int? {
        let n = int()
        guard !failed, n >= 0, n <= bytes.count - offset else { failed = true; return nil }
        return n
    }
    mutating func string() -> String {
        let n = Int(uint32())
        guard !failed, offset + n <= bytes.count else { failed = true; return "" }
        defer { offset += n }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<offset + n]), as: UTF8.self)
        }
    }
}

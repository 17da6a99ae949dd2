import Foundation

/// Reads every face of one font file through FreeType into ``FaceRecord`` values.
///
/// Collections give one record per face; a variable font gives its default face (which
/// covers the whole `wght` range) and one record per named instance, each with the
/// instance's own `wght` coordinate and real PostScript name.
struct FontFileReader {
    let library: FreeTypeLibrary

    /// Reads all faces of the file at `path`, whose size is `fileSize`.
    ///
    /// - Throws: ``FreeTypeError`` when FreeType cannot read the file.
    func readFaces(path: String, bytes: FontBytes) throws(FreeTypeError) -> [FaceRecord] {
        let fileSize = Int64(bytes.count)
        let container = bytes.containerFormat
        let probe = try library.openFace(bytes: bytes, index: -1)
        let count = max(1, probe.faceCount)
        var records: [FaceRecord] = []
        for faceIndex in 0..<count {
            let face = try library.openFace(bytes: bytes, index: faceIndex)
            var base = record(
                face: face, path: path, index: faceIndex, fileSize: fileSize, container: container,
                collection: count > 1)
            base.coverage = coverage(of: face, sharingWith: records.last?.coverage)
            records.append(base)
            guard face.isVariable else { continue }
            let (axes, instances) = face.variations()
            records[records.count - 1].axes = axes
            if let wdth = axes.first(where: { $0.tag == "wdth" }) {
                records[records.count - 1].widthPercent = wdth.defaultValue
                records[records.count - 1].width = FontWidth.widthClass(percentage: wdth.defaultValue)
            }
            let wghtIndex = axes.firstIndex { $0.tag == "wght" }
            let variation = Self.metricsVariation(of: face, axisCount: axes.count, base: base.metrics)
            records[records.count - 1].metricsVariation = variation
            base.metricsVariation = variation
            for (n, instance) in instances.enumerated() {
                let instanceFace = try library.openFace(bytes: bytes, index: ((n + 1) << 16) | faceIndex)
                var item = base
                item.instance = n + 1
                item.axes = axes
                item.coordinates = zip(axes, instance.coordinates).map {
                    VariationSetting(tag: $0.tag, value: $1)
                }
                if let wdth = axes.firstIndex(where: { $0.tag == "wdth" }) {
                    item.widthPercent = instance.coordinates[wdth]
                    item.width = FontWidth.widthClass(percentage: item.widthPercent)
                }
                if let ps = instanceFace.postscriptName { item.postscriptName = ps }
                item.metrics = Self.instanceMetrics(instanceFace.metrics, default: base.metrics)
                if let sub = face.name(id: instance.subfamilyNameID) { item.subfamily = sub }
                if let w = wghtIndex { item.weight = Int(instance.coordinates[w].rounded()) }
                item.fullName = "\(item.family) \(item.subfamily)"
                if let ital = axes.firstIndex(where: { $0.tag == "ital" }) {
                    item.italic = instance.coordinates[ital] >= 0.5
                } else if let slnt = axes.firstIndex(where: { $0.tag == "slnt" }), instance.coordinates[slnt] != 0 {
                    item.oblique = !item.italic
                }
                if item.subfamily.lowercased().contains("italic") { item.italic = true }
                records.append(item)
            }
        }
        return records
    }

    /// The file's name without directory or extension, found without touching the file system
    /// (`URL(fileURLWithPath:)` would `stat` the path, which a sandboxed parser may not).
    static func fileStem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// A named instance's metrics: FreeType's values with the `MVAR` deltas, which vary the
    /// `OS/2` fields only (`MVAR` has no tags for `hhea`'s); `hhea` follows the typo values when
    /// the default face has them equal, as fontTools' instancer keeps them (its
    /// `verticalMetricsKeptInSync`).
    static func instanceMetrics(_ metrics: FaceMetrics, default base: FaceMetrics) -> FaceMetrics {
        var metrics = metrics
        if base.hhea == base.typo { metrics.hhea = metrics.typo }
        return metrics
    }

    /// The face's `MVAR` deltas for its metrics, or why the table was ignored (``MVARParser``).
    static func metricsVariation(of face: FreeTypeFace, axisCount: Int, base: FaceMetrics) -> MetricsVariationSlot {
        let mvar = face.table("MVAR", limit: MVARParser.maximumTableSize)
        if let size = mvar.tooLarge {
            return MetricsVariationSlot(
                problem: MVARProblem.tooMany(
                    table: "MVAR", what: "bytes", count: size, limit: MVARParser.maximumTableSize
                ).description)
        }
        guard let bytes = mvar.bytes else { return MetricsVariationSlot() }
        let avar = face.table("avar", limit: MVARParser.maximumTableSize)
        if let size = avar.tooLarge {
            return MetricsVariationSlot(
                problem: MVARProblem.tooMany(
                    table: "avar", what: "bytes", count: size, limit: MVARParser.maximumTableSize
                ).description)
        }
        do {
            return MetricsVariationSlot(
                variation: try MVARParser.parse(mvar: bytes, avar: avar.bytes, axisCount: axisCount, base: base))
        } catch {
            return MetricsVariationSlot(problem: error.description)
        }
    }

    /// The face's coverage (issue 12); the faces of a collection with one cmap share one array.
    private func coverage(of face: FreeTypeFace, sharingWith previous: CharacterCoverage?) -> CharacterCoverage {
        let ranges = face.mappedRanges()
        if let previous, previous.ranges == ranges { return previous }
        return CharacterCoverage(ranges: ranges, languages: FontconfigLanguages.languages(covering: ranges))
    }

    private func record(
        face: FreeTypeFace, path: String, index: Int, fileSize: Int64, container: String?, collection: Bool
    ) -> FaceRecord {
        let family =
            face.name(id: 16) ?? face.name(id: 1) ?? face.freetypeFamily
            ?? Self.fileStem(path)
        let subfamily = face.name(id: 17) ?? face.name(id: 2) ?? face.freetypeStyle ?? "Regular"
        let os2 = face.os2
        let weight = os2.map { $0.weightClass } ?? (face.styleFlagsBold ? 700 : 400)
        let fsSelection = os2?.fsSelection ?? 0
        let italic = os2 != nil ? (fsSelection & 0x1 != 0) : face.styleFlagsItalic
        let oblique = fsSelection & 0x200 != 0
        var format = face.formatName
        if let container { format = "\(container) (\(format))" } else if collection { format = "\(format) Collection" }
        return FaceRecord(
            postscriptName: face.postscriptName
                ?? "\(family.replacingOccurrences(of: " ", with: ""))-\(subfamily.replacingOccurrences(of: " ", with: ""))",
            family: family,
            subfamily: subfamily,
            fullName: face.name(id: 4) ?? "\(family) \(subfamily)",
            weight: min(1000, max(1, weight == 0 ? 400 : weight)),
            italic: italic,
            oblique: oblique && !italic,
            width: min(9, max(1, os2?.widthClass ?? 5)),
            file: path,
            index: index,
            instance: nil,
            fileSize: fileSize,
            format: format,
            isColor: face.hasColor,
            axes: [],
            italicAngle: face.italicAngle,
            fontRevision: face.fontRevision,
            metrics: face.metrics)
    }
}

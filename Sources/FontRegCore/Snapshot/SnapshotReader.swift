/// Reads fields of a snapshot in place; every read is bounds-checked and yields zero or empty
/// outside the bytes, so no value in a file can make it read elsewhere.
struct SnapshotReader {
    /// The whole file.
    let bytes: UnsafeRawBufferPointer
    /// Where the string table starts (from the header), read once.
    let stringsBase: Int

    /// A reader over a file's bytes.
    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        let field = SnapshotLayout.Header.strings + 4
        stringsBase =
            field <= bytes.count - 4
            ? Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: field, as: UInt32.self))) : 0
    }

    /// A string's place in the file: absolute offset and length.
    struct StringRef {
        /// The absolute offset of the first byte.
        let offset: Int
        /// The length in bytes.
        let count: Int
    }

    /// The little-endian `UInt32` at `at`, or 0 outside the bytes.
    func u32(_ at: Int) -> UInt32 {
        guard at >= 0 && at <= bytes.count - 4 else { return 0 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    /// The little-endian `Int32` at `at`, widened, or 0 outside the bytes.
    func i32(_ at: Int) -> Int { Int(Int32(bitPattern: u32(at))) }

    /// The little-endian `UInt64` at `at`, or 0 outside the bytes.
    func u64(_ at: Int) -> UInt64 {
        guard at >= 0 && at <= bytes.count - 8 else { return 0 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    /// The little-endian `Double` at `at`, or 0 outside the bytes.
    func f64(_ at: Int) -> Double { Double(bitPattern: u64(at)) }

    /// The string reference stored at `at` (offset into the string table, length).
    func stringRef(at: Int) -> StringRef {
        StringRef(offset: stringsBase + Int(u32(at)), count: Int(u32(at + 4)))
    }

    /// The bytes of a string, empty when it lies outside the file.
    func slice(_ ref: StringRef) -> UnsafeRawBufferPointer {
        guard ref.offset >= 0, ref.count >= 0, ref.offset <= bytes.count - ref.count else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(rebasing: bytes[ref.offset..<ref.offset + ref.count])
    }

    /// The string (invalid UTF-8 is repaired, never trusted).
    func string(_ ref: StringRef) -> String { String(decoding: slice(ref), as: UTF8.self) }

    /// Whether the stored string is exactly `other`.
    func equalBytes(_ ref: StringRef, _ other: String) -> Bool {
        let stored = slice(ref)
        var other = other
        return other.withUTF8 { RawBytes.equal(UnsafeRawBufferPointer($0), stored) }
    }

    /// Whether the stored string equals `other` without regard to case, as ``CaseInsensitiveName`` compares.
    func equalIgnoringCase(_ ref: StringRef, _ other: String) -> Bool {
        let stored = slice(ref)
        var other = other
        let ascii: Bool? = other.withUTF8 { query in
            guard query.count == stored.count else {
                return query.contains { $0 >= 0x80 } || stored.contains { $0 >= 0x80 } ? nil : false
            }
            for i in 0..<query.count {
                let m = query[i], n = stored[i]
                if m >= 0x80 || n >= 0x80 { return nil }
                if CaseInsensitiveName.fold(m) != CaseInsensitiveName.fold(n) { return false }
            }
            return true
        }
        return ascii ?? (CaseInsensitiveName(string(ref)) == CaseInsensitiveName(other))
    }

    /// The face record at a position.
    func face(_ position: Int, sections: SnapshotSections) -> FaceRecord {
        let at = sections.faces.offset + position * SnapshotLayout.faceSize
        let flags = u32(at + 64)
        let firstAxis = Int(u32(at + 68)), axisCount = Int(u32(at + 72))
        var axes: [VariationAxis] = []
        if axisCount > 0 {
            axes.reserveCapacity(axisCount)
            for a in firstAxis..<firstAxis + axisCount {
                let axis = sections.axes.offset + a * SnapshotLayout.axisSize
                axes.append(
                    VariationAxis(
                        tag: string(stringRef(at: axis)), minimum: f64(axis + 8), defaultValue: f64(axis + 16),
                        maximum: f64(axis + 24)))
            }
        }
        let firstCoordinate = Int(u32(at + 76)), coordinateCount = Int(u32(at + 112))
        var coordinates: [VariationSetting] = []
        if coordinateCount > 0 {
            coordinates.reserveCapacity(coordinateCount)
            for c in firstCoordinate..<firstCoordinate + coordinateCount {
                let axis = sections.axes.offset + c * SnapshotLayout.axisSize
                coordinates.append(VariationSetting(tag: string(stringRef(at: axis)), value: f64(axis + 16)))
            }
        }
        var face = FaceRecord(
            postscriptName: string(stringRef(at: at)), family: string(stringRef(at: at + 8)),
            subfamily: string(stringRef(at: at + 16)), fullName: string(stringRef(at: at + 24)),
            weight: i32(at + 48), italic: flags & SnapshotLayout.Flag.italic != 0,
            oblique: flags & SnapshotLayout.Flag.oblique != 0, width: i32(at + 52),
            file: string(stringRef(at: at + 32)), index: i32(at + 56),
            instance: flags & SnapshotLayout.Flag.hasInstance != 0 ? i32(at + 60) : nil,
            fileSize: Int64(bitPattern: u64(at + 80)), format: string(stringRef(at: at + 40)),
            isColor: flags & SnapshotLayout.Flag.color != 0, axes: axes, widthPercent: f64(at + 88),
            italicAngle: f64(at + 96), coordinates: coordinates, fontRevision: f64(at + 104),
            metrics: SnapshotLayout.Face.metrics(
                values: (0..<11).map { i32(at + SnapshotLayout.Face.metrics + $0 * 4) },
                useTypoMetrics: u32(at + SnapshotLayout.Face.useTypoMetrics) != 0))
        let variation = stringRef(at: at + SnapshotLayout.Face.metricsVariation)
        if variation.count > 0 { face.metricsVariation = MetricsVariationSlot(encoded: string(variation)) }
        let rangeValues = Int(u32(at + SnapshotLayout.Face.rangeValues))
        let languages = stringRef(at: at + SnapshotLayout.Face.languages)
        if rangeValues > 0 || languages.count > 0 {
            let first = sections.coverage.offset + Int(u32(at + SnapshotLayout.Face.firstRange)) * 4
            var ranges: [UInt32] = []
            ranges.reserveCapacity(rangeValues)
            for i in 0..<rangeValues { ranges.append(u32(first + i * 4)) }
            face.coverage = CharacterCoverage(
                ranges: ranges, languageList: languages.count == 0 ? "" : string(languages))
        }
        return face
    }
}

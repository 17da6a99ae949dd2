import FontRegSystem

/// Lays out a ``FontIndex`` as snapshot bytes (the layout in `SnapshotLayout.swift`) and writes them atomically.
public enum SnapshotWriter {
    /// The snapshot of an index, as bytes.
    ///
    /// - Parameters:
    ///   - index: the faces and families to lay out.
    ///   - generation: the generation to record (by default the index's).
    /// - Returns: the file's bytes, checksum included.
    public static func bytes(of index: FontIndex, generation: Int? = nil) -> [UInt8] {
        var builder = SnapshotBuilder(index: index)
        return builder.build(generation: UInt64(max(0, generation ?? index.generation)))
    }

    /// Recomputes the checksum of snapshot bytes in place, as a writer (or a fuzzer that wants
    /// to reach past the checksum check) does after changing them.
    ///
    /// - Parameter bytes: the file's bytes; shorter than a header, they are left alone.
    package static func reseal(_ bytes: inout [UInt8]) {
        guard bytes.count >= SnapshotLayout.headerSize else { return }
        let sum = bytes.withUnsafeBytes { SnapshotHash.checksum($0) }
        withUnsafeBytes(of: sum.littleEndian) {
            bytes.replaceSubrange(SnapshotLayout.checksumOffset..<SnapshotLayout.checksumOffset + 8, with: $0)
        }
    }

    /// Writes the snapshot of an index to `directory/name`: temporary file, `fsync`, rename, `fsync` of the directory.
    ///
    /// - Parameters:
    ///   - index: the faces and families to lay out.
    ///   - directory: the directory that holds the snapshot.
    ///   - name: the file name.
    ///   - generation: the generation to record (by default the index's).
    /// - Throws: ``SnapshotError/unreadable(path:reason:)`` naming the call that failed.
    public static func write(
        _ index: FontIndex, directory: String, name: String, generation: Int? = nil
    ) throws(SnapshotError) {
        do {
            try AtomicFile.write(bytes(of: index, generation: generation), directory: directory, name: name)
        } catch {
            throw .unreadable(path: directory + "/" + name, reason: error.description)
        }
    }
}

/// The working state of one layout: the string table and the records, appended in order.
struct SnapshotBuilder {
    /// The index being laid out.
    let index: FontIndex
    /// The string table so far.
    private var strings: [UInt8] = []
    /// Where each string already in the table lies.
    private var stringOffsets: [String: (UInt32, UInt32)] = [:]
    /// The axes of all faces, in face order.
    private var axes: [VariationAxis] = []
    /// The first face of each PostScript name (first wins, as in ``FontIndex``).
    private var postscript: [CaseInsensitiveName: Int] = [:]

    /// Starts the layout of an index.
    init(index: FontIndex) { self.index = index }

    /// The offset and length of a string in the table, adding it once.
    mutating func string(_ value: String) -> (UInt32, UInt32) {
        if let known = stringOffsets[value] { return known }
        let entry = (UInt32(strings.count), UInt32(value.utf8.count))
        strings.append(contentsOf: value.utf8)
        stringOffsets[value] = entry
        return entry
    }

    /// The file: header, faces, families, axes, the three maps and the strings, each 8-byte aligned.
    mutating func build(generation: UInt64) -> [UInt8] {
        var full: [CaseInsensitiveName: Int] = [:]
        for (i, face) in index.faces.enumerated().reversed() {
            postscript[CaseInsensitiveName(face.postscriptName)] = i
            full[CaseInsensitiveName(face.fullName)] = i
        }
        let faces = faceRecords()
        let families = familyRecords()
        let psMap = Self.map(postscript.map { (SnapshotHash.caseInsensitive($0.key.name), $0.value) })
        let fullMap = Self.map(full.map { (SnapshotHash.caseInsensitive($0.key.name), $0.value) })
        let familyMap = Self.map(
            index.families.enumerated().map { (SnapshotHash.exact(FamilyKey($0.element.name).value), $0.offset) })
        var axisBytes = ByteAppender()
        for axis in axes {
            let tag = string(axis.tag)
            axisBytes.u32(tag.0)
            axisBytes.u32(tag.1)
            axisBytes.f64(axis.minimum)
            axisBytes.f64(axis.defaultValue)
            axisBytes.f64(axis.maximum)
        }
        let sections: [[UInt8]] = [
            faces, families, axisBytes.bytes, psMap.bytes, fullMap.bytes, familyMap.bytes, strings,
        ]
        var offsets: [Int] = []
        var position = SnapshotLayout.headerSize
        for section in sections {
            position = (position + 7) & ~7
            offsets.append(position)
            position += section.count
        }
        var out = ByteAppender()
        out.bytes = SnapshotLayout.magic
        out.u32(SnapshotLayout.version)
        out.u32(UInt32(SnapshotLayout.headerSize))
        out.u64(generation)
        out.u64(0)
        out.u64(UInt64(position))
        let counts = [index.faces.count, index.families.count, axes.count, psMap.slots, fullMap.slots, familyMap.slots]
        for (count, offset) in zip(counts, offsets) {
            out.u32(UInt32(count))
            out.u32(UInt32(offset))
        }
        out.u32(UInt32(strings.count))
        out.u32(UInt32(offsets[6]))
        for (section, offset) in zip(sections, offsets) {
            out.bytes += [UInt8](repeating: 0, count: offset - out.bytes.count)
            out.bytes += section
        }
        SnapshotWriter.reseal(&out.bytes)
        return out.bytes
    }

    /// The face table; collects the axes.
    private mutating func faceRecords() -> [UInt8] {
        var out = ByteAppender()
        out.bytes.reserveCapacity(index.faces.count * SnapshotLayout.faceSize)
        for face in index.faces {
            for text in [face.postscriptName, face.family, face.subfamily, face.fullName, face.file, face.format] {
                let entry = string(text)
                out.u32(entry.0)
                out.u32(entry.1)
            }
            out.i32(face.weight)
            out.i32(face.width)
            out.i32(face.index)
            out.i32(face.instance ?? 0)
            var flags: UInt32 = 0
            if face.italic { flags |= SnapshotLayout.Flag.italic }
            if face.oblique { flags |= SnapshotLayout.Flag.oblique }
            if face.isColor { flags |= SnapshotLayout.Flag.color }
            if face.instance != nil { flags |= SnapshotLayout.Flag.hasInstance }
            out.u32(flags)
            out.u32(UInt32(axes.count))
            out.u32(UInt32(face.axes.count))
            axes += face.axes
            out.u32(UInt32(axes.count))
            out.u64(UInt64(bitPattern: face.fileSize))
            out.f64(face.widthPercent)
            out.f64(face.italicAngle)
            out.f64(face.fontRevision)
            out.u32(UInt32(face.coordinates.count))
            out.u32(0)
            axes += face.coordinates.map {
                VariationAxis(tag: $0.tag, minimum: $0.value, defaultValue: $0.value, maximum: $0.value)
            }
        }
        return out.bytes
    }

    /// The family table with the composed-name slots.
    private mutating func familyRecords() -> [UInt8] {
        var out = ByteAppender()
        var first = 0
        for entry in index.families {
            let name = string(entry.name)
            let key = string(FamilyKey(entry.name).value)
            out.u32(name.0)
            out.u32(name.1)
            out.u32(key.0)
            out.u32(key.1)
            out.u32(UInt32(first))
            out.u32(UInt32(entry.faces.count))
            first += entry.faces.count
            for slot in entry.defaultComposed.prefix(SnapshotLayout.slotCount) {
                let (composed, kind, face): (String, UInt32, Int)
                switch slot {
                case .missing(let name): (composed, kind, face) = (name, 0, 0)
                case .found(let name, _): (composed, kind, face) = (name, 1, postscript[CaseInsensitiveName(name)] ?? 0)
                case .misfit(let name, _):
                    (composed, kind, face) = (name, 2, postscript[CaseInsensitiveName(name)] ?? 0)
                }
                let text = string(composed)
                out.u32(text.0)
                out.u32(text.1)
                out.u32(kind)
                out.u32(UInt32(face))
            }
        }
        return out.bytes
    }

    /// An open-addressing table of `(hash, entry)` pairs: twice as many slots as entries, a power of two.
    static func map(_ entries: [(UInt32, Int)]) -> (slots: Int, bytes: [UInt8]) {
        var slots = 2
        while slots < entries.count * 2 { slots *= 2 }
        var table = [(UInt32, UInt32)](repeating: (0, 0), count: slots)
        for (hash, entry) in entries.sorted(by: { $0.1 < $1.1 }) {
            var i = Int(hash) & (slots - 1)
            while table[i].1 != 0 { i = (i + 1) & (slots - 1) }
            table[i] = (hash, UInt32(entry + 1))
        }
        var out = ByteAppender()
        for (hash, entry) in table {
            out.u32(hash)
            out.u32(entry)
        }
        return (slots, out.bytes)
    }
}

/// Appends little-endian integers and floats to a byte array.
struct ByteAppender {
    /// The bytes so far.
    var bytes: [UInt8] = []

    /// Appends a `UInt32`.
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    /// Appends an `Int` as an `Int32` (truncated).
    mutating func i32(_ value: Int) { u32(UInt32(bitPattern: Int32(truncatingIfNeeded: value))) }
    /// Appends a `UInt64`.
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    /// Appends a `Double`'s bits.
    mutating func f64(_ value: Double) { u64(value.bitPattern) }
}

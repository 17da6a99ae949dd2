import FontRegCore
import Foundation

/// Estimates what instancing the shipped variable fonts would save (``VariableFontUse``).
package enum VariableFontSavings {
    /// The tables an instancer drops when it pins every axis.
    static let variationTables: Set<String> = ["gvar", "cvar", "HVAR", "VVAR", "MVAR", "avar", "fvar"]

    /// One entry per shipped variable face with a `wght` axis, sorted by file.
    package static func estimate(_ wiring: AuditWiring) -> [VariableFontUse] {
        var uses: [VariableFontUse] = []
        for face in wiring.families.flatMap(\.faces) where face.isVariable {
            guard face.record.axes.contains(where: { $0.tag == "wght" }),
                let tables = tableSizes(of: face.record.file)
            else { continue }
            let variation = tables.filter { variationTables.contains($0.key) }.values.reduce(0, +)
            let bytes = face.record.fileSize
            let instance = max(0, bytes - variation)
            let range = face.weightAxisRange
            let quoted = "'\(face.record.file.replacingOccurrences(of: "'", with: "'\\''"))'"
            let stem = ((face.record.file as NSString).lastPathComponent as NSString).deletingPathExtension
                .replacingOccurrences(of: "[wght]", with: "")
            let pinTotal = instance * Int64(face.declaredWeights.count)
            var use = VariableFontUse(
                file: face.record.file, postscriptName: face.record.postscriptName,
                axis: [range.lowerBound, range.upperBound], used: face.declaredWeights, bytes: bytes,
                variationBytes: variation, staticInstanceBytes: instance, advice: "pin", savedBytes: bytes - pinTotal,
                commands: face.declaredWeights.map {
                    "fonttools varLib.instancer \(quoted) wght=\($0) -o '\(stem)-\($0).ttf'"
                })
            if pinTotal >= bytes {
                let low = face.declaredWeights.first ?? range.lowerBound
                let high = face.declaredWeights.last ?? range.upperBound
                use.advice = "trim"
                use.savedBytes = 0
                use.commands = [
                    "fonttools varLib.instancer \(quoted) wght=\(low):\(high) -o '\(stem)-\(low)-\(high).ttf'"
                ]
            }
            uses.append(use)
        }
        return uses.sorted { $0.file < $1.file }
    }

    /// The sizes of the tables of an OpenType file (the first font of a collection), by tag.
    ///
    /// - Returns: `nil` when the file cannot be read or is not an sfnt.
    static func tableSizes(of path: String) -> [String: Int64]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard var header = try? handle.read(upToCount: 12).map(Array.init), header.count == 12 else { return nil }
        var base: UInt64 = 0
        if header.starts(with: Array("ttcf".utf8)) {
            guard let offsets = try? handle.read(upToCount: 4).map(Array.init), offsets.count == 4 else { return nil }
            base = UInt64(be32(offsets, 0))
            try? handle.seek(toOffset: base)
            guard let first = try? handle.read(upToCount: 12).map(Array.init), first.count == 12 else { return nil }
            header = first
        }
        let count = Int(header[4]) << 8 | Int(header[5])
        guard count > 0, count < 512,
            let records = try? handle.read(upToCount: count * 16).map(Array.init), records.count == count * 16
        else { return nil }
        var sizes: [String: Int64] = [:]
        for index in 0..<count {
            let tag = String(decoding: records[index * 16..<index * 16 + 4], as: UTF8.self)
            sizes[tag] = Int64(be32(records, index * 16 + 12))
        }
        return sizes
    }

    private static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

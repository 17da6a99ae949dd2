import FontRegSystem

/// The whole content of a font file, mapped from a checked descriptor, in memory FreeType can use.
///
/// Faces opened from it keep a reference, so the mapping outlives every face.
final class FontBytes {
    /// The mapping the bytes live in.
    let mapping: MappedFile

    /// Wraps a mapping of the whole file.
    init(_ mapping: MappedFile) {
        self.mapping = mapping
    }

    /// The first byte.
    var base: UnsafeRawPointer { mapping.base }
    /// The file's size in bytes.
    var count: Int { mapping.count }
    /// Whether the file was truncated while it was read (see ``MappedFile/isDamaged``).
    var isDamaged: Bool { mapping.isDamaged }

    /// Why these bytes are not a font at all, judged by the magic numbers of the formats FreeType reads; `nil` when they may be one.
    var notAFontReason: String? {
        let head = Array(UnsafeRawBufferPointer(start: base, count: min(count, 16)))
        func starts(_ text: String) -> Bool { head.starts(with: Array(text.utf8)) }
        if head.starts(with: [0x00, 0x01, 0x00, 0x00]) || head.starts(with: [0x80, 0x01])
            || head.starts(with: [0x01, 0x66, 0x63, 0x70])
        {
            return nil
        }
        for magic in [
            "OTTO", "true", "typ1", "ttcf", "wOFF", "wOF2", "%!PS-AdobeFont", "%!FontType1", "STARTFONT",
            "\u{1}\u{0}\u{4}",
        ] where starts(magic) {
            return nil
        }
        if count >= 4 && head.prefix(4).allSatisfy({ $0 == 0 }) { return "not a font file: it starts with zero bytes" }
        let printable = head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32...126).contains($0) }
        if printable { return "not a font file: it looks like text" }
        if count < 12 { return "not a font file: too short (\(count) bytes)" }
        return nil  // unknown binary: let FreeType decide (it knows more formats than these)
    }

    /// `WOFF` or `WOFF2` when the bytes are a web font wrapper, from the magic number.
    var containerFormat: String? {
        guard count >= 4 else { return nil }
        let magic = String(decoding: UnsafeRawBufferPointer(start: base, count: 4), as: UTF8.self)
        switch magic {
        case "wOFF": return "WOFF"
        case "wOF2": return "WOFF2"
        default: return nil
        }
    }
}

/// Sure grapheme-cluster boundaries found without Swift's segmentation (issue 29).
///
/// UAX #29 breaks between two scalars unless a rule joins them, and every joining rule needs one
/// of the two to be special: CR before LF (GB3), a Hangul jamo or syllable (GB6–8), an Extend,
/// ZWJ or SpacingMark after (GB9, GB9a), a Prepend before (GB9b), a linker or Extend before a
/// consonant (GB9c), a ZWJ before a pictograph (GB11), a regional indicator pair (GB12–13).
/// So between two *plain* scalars — none of those, nor a control or format character — there is
/// always a boundary, and a scalar with plain neighbours is a cluster of its own. The table says
/// which BMP scalars are plain; everything else takes Swift's segmentation, in pieces cut at
/// these sure boundaries (which do not change where Swift breaks inside a piece).
enum SimpleBoundaries {
    /// One bit per BMP scalar: whether it is plain. Built on first use from the scalar properties.
    static let plain: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 0x10000 / 64)
        for value in 0..<UInt32(0x10000) {
            guard let scalar = Unicode.Scalar(value), isPlain(scalar) else { continue }
            bits[Int(value >> 6)] |= 1 << UInt64(value & 63)
        }
        return bits
    }()

    /// Whether a BMP scalar joins no neighbour by any UAX #29 rule but GB999's break.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        // Hangul jamo and syllables (GB6–8); Malayalam's dot reph (Prepend); Thai and Lao SARA AM (SpacingMark).
        if (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xAC00...0xD7FF).contains(value)
            || value == 0x0D4E || value == 0x0E33 || value == 0x0EB3
        {
            return false
        }
        let properties = scalar.properties
        if properties.isGraphemeExtend { return false }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .lineSeparator,
            .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return false
        default:
            return true
        }
    }

    /// Whether the scalar is a plain BMP scalar.
    @inline(__always)
    static func isPlain(_ value: UInt32) -> Bool {
        value < 0x10000 && plain[Int(value >> 6)] & (1 << UInt64(value & 63)) != 0
    }
}

/// The stretch of a JSON string's bytes that needs no escape, found 8 bytes at a time.
///
/// A word is plain when none of its bytes is a quote, a backslash or a control character
/// (below 0x20); each test is a few arithmetic operations on the whole word (the zero-byte
/// tests of SWAR scanners: nonzero exactly when some byte matches). Reading and writing a text
/// of some kilobytes byte by byte was about 11 instructions a byte; this is about 2.
enum PlainWords {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// From `start`, the offset of the first word of `bytes` that is not plain, or of the last
    /// fewer than 8 bytes (the caller reads from there byte by byte), and whether a byte of 0x80
    /// or more was skipped.
    @inline(__always)
    static func skip(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, high: Bool) {
        guard let base = bytes.baseAddress else { return (start, false) }
        let raw = UnsafeRawPointer(base)
        var position = start
        var high: UInt64 = 0
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            guard isPlain(word) else { break }
            high |= word & highs
            position += 8
        }
        return (position, high != 0)
    }

    /// Whether no byte of `word` is a quote, a backslash or below 0x20.
    @inline(__always)
    static func isPlain(_ word: UInt64) -> Bool {
        // A byte below 0x20 (a byte of 0x80 or more is left out by `~word`).
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs) == 0
    }
}

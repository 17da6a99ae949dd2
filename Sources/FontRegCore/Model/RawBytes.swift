/// Comparisons of byte ranges in place, a machine word at a time (issue 29 item 3): the
/// standard library's generic `elementsEqual` goes element by element through iterators, which
/// was a tenth of a 10,000-file warm start's instructions where paths are compared in place.
package enum RawBytes {
    /// Whether `a` and `b` hold the same bytes.
    package static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        let count = a.count
        var i = 0
        while i + 8 <= count {
            guard
                a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            else { return false }
            i += 8
        }
        while i < count {
            guard a[i] == b[i] else { return false }
            i += 1
        }
        return true
    }

    /// Whether the first `count` bytes of `a` are the bytes of `b` (and `b` holds `count`).
    package static func prefix(_ a: UnsafeRawBufferPointer, count: Int, equals b: [UInt8]) -> Bool {
        guard count <= a.count, b.count == count else { return false }
        return b.withUnsafeBytes { equal(UnsafeRawBufferPointer(rebasing: a[0..<count]), $0) }
    }
}

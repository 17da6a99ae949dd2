import Testing

@testable import FontRegCore

@Suite struct RawBytesTests {
    /// Every length up to three words and a tail, and a difference at every position of each.
    @Test func equalIsTrueExactlyWhenEveryByteAndTheLengthAgree() {
        for count in 0...27 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
            bytes.withUnsafeBytes { a in
                Array(bytes).withUnsafeBytes { b in #expect(RawBytes.equal(a, b), "length \(count)") }
                (bytes + [0]).withUnsafeBytes { longer in #expect(!RawBytes.equal(a, longer), "one byte longer") }
                for position in 0..<count {
                    var other = bytes
                    other[position] ^= 0x80
                    other.withUnsafeBytes { b in
                        #expect(!RawBytes.equal(a, b), "length \(count), differing at \(position)")
                    }
                }
            }
        }
    }

    @Test func prefixComparesOnlyTheFirstBytesAndNeedsTheWholeOther() {
        let path = Array("/usr/share/fonts/truetype/Lato-Bold.ttf".utf8)
        path.withUnsafeBytes { raw in
            #expect(RawBytes.prefix(raw, count: 16, equals: Array("/usr/share/fonts".utf8)))
            #expect(!RawBytes.prefix(raw, count: 16, equals: Array("/usr/share/fontz".utf8)))
            #expect(!RawBytes.prefix(raw, count: 15, equals: Array("/usr/share/fonts".utf8)), "other longer than count")
            #expect(!RawBytes.prefix(raw, count: path.count + 1, equals: path + [0]), "count past the bytes")
            #expect(RawBytes.prefix(raw, count: 0, equals: []))
        }
    }
}

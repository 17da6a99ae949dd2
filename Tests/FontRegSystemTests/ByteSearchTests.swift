import Testing

@testable import FontRegSystem

@Suite("Byte search")
struct ByteSearchTests {
    @Test func findsTheFirstByteAtOrAfterTheStartWhereverItLies() {
        for length in 0..<70 {
            for target in 0...length {
                // The byte at `target` (none when `target == length`), and another after it.
                var bytes = [UInt8](repeating: 7, count: length + 1)
                if target < length { bytes[target] = 0 }
                bytes[length] = 0
                bytes.withUnsafeBufferPointer { buffer in
                    let counted = UnsafeBufferPointer(rebasing: buffer[0..<length])
                    #expect(ByteSearch.first(0, in: counted, from: 0) == (target < length ? target : nil))
                    if target < length {
                        #expect(ByteSearch.first(0, in: counted, from: target) == target)
                        #expect(ByteSearch.first(0, in: counted, from: target + 1) == nil)
                    }
                }
            }
        }
    }

    @Test func aStartOutsideTheBufferFindsNothing() {
        let bytes: [UInt8] = [0, 1, 0]
        bytes.withUnsafeBufferPointer { buffer in
            #expect(ByteSearch.first(0, in: buffer, from: 3) == nil)
            #expect(ByteSearch.first(0, in: buffer, from: 10) == nil)
            #expect(ByteSearch.first(0, in: buffer, from: -1) == nil)
            #expect(ByteSearch.first(1, in: buffer, from: 0) == 1)
        }
        [UInt8]().withUnsafeBufferPointer { #expect(ByteSearch.first(0, in: $0, from: 0) == nil) }
    }
}

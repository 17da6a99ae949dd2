/// A name that hashes and compares without regard to case, without allocating a lowered copy.
///
/// ASCII letters are folded byte by byte; a name with other characters falls back to
/// Unicode lower-casing.
struct CaseInsensitiveName: Hashable {
    let name: String

    init(_ name: String) { self.name = name }

    func hash(into hasher: inout Hasher) {
        // FNV-1a over the folded bytes, fed to the hasher once; one pass over the contiguous
        // UTF-8 that gives up on the first non-ASCII byte.
        var copy = name
        let value: UInt64? = copy.withUTF8 { bytes in
            var value: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                if byte >= 0x80 { return nil }
                value = (value ^ UInt64(Self.fold(byte))) &* 0x100_0000_01b3
            }
            return value
        }
        if let value { hasher.combine(value) } else { hasher.combine(name.lowercased()) }
    }

    static func == (a: CaseInsensitiveName, b: CaseInsensitiveName) -> Bool {
        // One pass over both names. Dictionary probes compare a key with several that differ,
        // so a difference must show early: the first two ASCII bytes that differ after folding
        // prove the names different (lower-casing leaves ASCII as ASCII, and what precedes them
        // is the same ASCII in both). A non-ASCII byte hands over to Unicode lower-casing.
        var x = a.name, y = b.name
        let verdict: Bool? = x.withUTF8 { p in
            y.withUTF8 { q in
                let common = min(p.count, q.count)
                var i = 0
                while i < common {
                    let m = p[i], n = q[i]
                    if m >= 0x80 || n >= 0x80 { return nil }
                    if fold(m) != fold(n) { return false }
                    i += 1
                }
                if p.count == q.count { return true }
                // One name is a prefix of the other: different, unless the rest is non-ASCII.
                let rest =
                    p.count > common
                    ? UnsafeBufferPointer(rebasing: p[common...]) : UnsafeBufferPointer(rebasing: q[common...])
                return rest.contains(where: { $0 >= 0x80 }) ? nil : false
            }
        }
        return verdict ?? (a.name.lowercased() == b.name.lowercased())
    }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

/// A name that hashes and compares without regard to case, without allocating a lowered copy.
///
/// ASCII letters are folded byte by byte; a name with other characters falls back to
/// Unicode lower-casing.
struct CaseInsensitiveName: Hashable {
    let name: String

    init(_ name: String) { self.name = name }

    func hash(into hasher: inout Hasher) {
        // FNV-1a over the folded bytes, fed to the hasher once; one pass that gives up on the
        // first non-ASCII byte.
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            if byte >= 0x80 {
                hasher.combine(name.lowercased())
                return
            }
            value = (value ^ UInt64(Self.fold(byte))) &* 0x100_0000_01b3
        }
        hasher.combine(value)
    }

    static func == (a: CaseInsensitiveName, b: CaseInsensitiveName) -> Bool {
        // One pass over both names. Dictionary probes compare a key with several that differ,
        // so a difference must show early: the first two ASCII bytes that differ after folding
        // prove the names different (lower-casing leaves ASCII as ASCII, and what precedes them
        // is the same ASCII in both). A non-ASCII byte hands over to Unicode lower-casing.
        var x = a.name.utf8.makeIterator(), y = b.name.utf8.makeIterator()
        while true {
            switch (x.next(), y.next()) {
            case (nil, nil):
                return true
            case let (p?, q?):
                if p >= 0x80 || q >= 0x80 { return a.name.lowercased() == b.name.lowercased() }
                if fold(p) != fold(q) { return false }
            default:
                // One name is a prefix of the other: different, unless the rest is non-ASCII.
                if a.name.utf8.contains(where: { $0 >= 0x80 }) || b.name.utf8.contains(where: { $0 >= 0x80 }) {
                    return a.name.lowercased() == b.name.lowercased()
                }
                return false
            }
        }
    }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

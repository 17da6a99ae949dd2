/// A name that hashes and compares without regard to case, without allocating a lowered copy.
///
/// ASCII letters are folded byte by byte; a name with other characters falls back to
/// Unicode lower-casing.
struct CaseInsensitiveName: Hashable {
    let name: String

    init(_ name: String) { self.name = name }

    func hash(into hasher: inout Hasher) {
        if name.utf8.contains(where: { $0 >= 0x80 }) {
            hasher.combine(name.lowercased())
            return
        }
        // FNV-1a over the folded bytes, fed to the hasher once.
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { value = (value ^ UInt64(Self.fold(byte))) &* 0x100_0000_01b3 }
        hasher.combine(value)
    }

    static func == (a: CaseInsensitiveName, b: CaseInsensitiveName) -> Bool {
        let x = a.name.utf8, y = b.name.utf8
        if x.contains(where: { $0 >= 0x80 }) || y.contains(where: { $0 >= 0x80 }) {
            return a.name.lowercased() == b.name.lowercased()
        }
        return x.count == y.count && x.elementsEqual(y) { fold($0) == fold($1) }
    }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

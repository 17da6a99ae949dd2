/// The file name endings a directory walk reads (issue 29 item 3): matched on a name's bytes,
/// with no `String` and no hashing, since it runs for every entry of every directory at each
/// scan and at each warm start's check of the recorded directories.
enum FontExtension {
    /// The endings, lower case, as ``FontScanner/fontExtensions`` lists them.
    static let all = ["ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa", "t1", "cff", "pcf", "bdf", "dfont"]

    /// Each of ``all`` packed as ``packed(_:)`` packs a name's ending.
    private static let packedEndings: [UInt64] = all.map { packed(Array($0.utf8)[...])! }

    /// Whether `name` ends in one of ``all``, ignoring ASCII case: the extension is what follows
    /// the last dot, as `NSString.pathExtension` has it (a name that is only a dot and an ending,
    /// such as `.ttf`, has none).
    ///
    /// - Parameter name: a file name's bytes (UTF-8).
    static func matches<Name: BidirectionalCollection<UInt8>>(_ name: Name) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex,
            let ending = packed(name[name.index(after: dot)...])
        else { return false }
        return packedEndings.contains(ending)
    }

    /// Up to five ASCII bytes, lower-cased, in one word (the first byte lowest); `nil` for an
    /// empty ending, a longer one or one with a byte that is not ASCII.
    private static func packed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64? {
        var word: UInt64 = 0, shift: UInt64 = 0
        for byte in bytes {
            guard shift < 40, byte < 0x80 else { return nil }
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            word |= UInt64(lower) << shift
            shift += 8
        }
        return shift == 0 ? nil : word
    }
}

/// The hashes of the snapshot format: FNV-1a for names, a word-wise mix for the checksum.
enum SnapshotHash {
    /// FNV-1a (32-bit) of a name without regard to case: ASCII folded byte by byte, other
    /// names through Unicode lower-casing, so names that ``CaseInsensitiveName`` finds equal hash alike.
    static func caseInsensitive(_ name: String) -> UInt32 {
        var copy = name
        let ascii: UInt32? = copy.withUTF8 { bytes in
            var value: UInt32 = 0x811c_9dc5
            for byte in bytes {
                if byte >= 0x80 { return nil }
                value = (value ^ UInt32(CaseInsensitiveName.fold(byte))) &* 0x0100_0193
            }
            return value
        }
        return ascii ?? exact(name.lowercased())
    }

    /// FNV-1a (32-bit) of the UTF-8 bytes of a string as they are.
    static func exact(_ string: String) -> UInt32 {
        var value: UInt32 = 0x811c_9dc5
        for byte in string.utf8 { value = (value ^ UInt32(byte)) &* 0x0100_0193 }
        return value
    }

    /// The checksum of a snapshot: all bytes, with the checksum and the superseded mark counted as zero.
    ///
    /// Eight bytes at a time (a multiply-rotate mix), then the tail byte by byte; about a
    /// gigabyte a second, so that checking a 100,000-face snapshot costs milliseconds.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var value: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            var word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if offset == SnapshotLayout.checksumOffset || offset == SnapshotLayout.supersededOffset { word = 0 }
            value = ((value ^ word) &* 0xff51_afd7_ed55_8ccd)
            value = (value << 31) | (value >> 33)
            offset += 8
        }
        while offset < bytes.count {
            value = (value ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01b3
            offset += 1
        }
        return value ^ (value >> 29)
    }
}

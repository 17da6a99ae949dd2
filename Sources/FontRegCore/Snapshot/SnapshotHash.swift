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
    /// Four independent 64-bit lanes over 32-byte blocks (a multiply-rotate mix each, so the
    /// CPU overlaps them), folded together with the tail; several gigabytes a second, so that
    /// checking a 100,000-face index costs a few milliseconds at a warm start.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        @inline(__always) func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let value = (lane ^ word) &* 0xff51_afd7_ed55_8ccd
            return (value << 31) | (value >> 33)
        }
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0x9e37_79b9_7f4a_7c15 ^ UInt64(bytes.count), 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9,
            0x85eb_ca77_c2b2_ae63
        )
        let blocks = bytes.count / 32 * 32
        // The header's blocks, with the two words written in place counted as zero.
        let header = min(blocks, (SnapshotLayout.headerSize + 31) / 32 * 32)
        var offset = 0
        while offset < header {
            var words = (word(offset), word(offset + 8), word(offset + 16), word(offset + 24))
            for excluded in [SnapshotLayout.checksumOffset, SnapshotLayout.supersededOffset]
            where excluded >= offset && excluded < offset + 32 {
                switch (excluded - offset) / 8 {
                case 0: words.0 = 0
                case 1: words.1 = 0
                case 2: words.2 = 0
                default: words.3 = 0
                }
            }
            lanes = (mix(lanes.0, words.0), mix(lanes.1, words.1), mix(lanes.2, words.2), mix(lanes.3, words.3))
            offset += 32
        }
        while offset < blocks {
            lanes = (
                mix(lanes.0, word(offset)), mix(lanes.1, word(offset + 8)), mix(lanes.2, word(offset + 16)),
                mix(lanes.3, word(offset + 24))
            )
            offset += 32
        }
        var value = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while offset < bytes.count {
            // Only a file shorter than its header has excluded words here; they count as zero too.
            let inExcluded =
                (offset >= SnapshotLayout.checksumOffset && offset < SnapshotLayout.checksumOffset + 8)
                || (offset >= SnapshotLayout.supersededOffset && offset < SnapshotLayout.supersededOffset + 8)
            value = (value ^ UInt64(inExcluded ? 0 : bytes[offset])) &* 0x0000_0100_0000_01b3
            offset += 1
        }
        return value ^ (value >> 29)
    }
}

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
        checksum(head: UnsafeRawBufferPointer(rebasing: bytes[0..<0]), rest: bytes)
    }

    /// The checksum of the bytes of `head` followed by those of `rest`, as ``checksum(_:)`` of
    /// the two together, without putting them together: a published snapshot is a patched copy
    /// of the header and the rest of the index file read where it is mapped (a 100,000-face
    /// file's public part is 50 MB). `head` holds whole 32-byte blocks.
    static func checksum(head: UnsafeRawBufferPointer, rest: UnsafeRawBufferPointer) -> UInt64 {
        precondition(head.count % 32 == 0, "a checksum's head holds whole 32-byte blocks")
        @inline(__always) func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let value = (lane ^ word) &* 0xff51_afd7_ed55_8ccd
            return (value << 31) | (value >> 33)
        }
        let count = head.count + rest.count
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0x9e37_79b9_7f4a_7c15 ^ UInt64(count), 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9,
            0x85eb_ca77_c2b2_ae63
        )
        let blocks = count / 32 * 32
        // The header's blocks, with the two words written in place counted as zero.
        let header = min(blocks, (SnapshotLayout.headerSize + 31) / 32 * 32)
        // The bytes at an offset of the two parts taken together (every block lies in one part).
        @inline(__always) func part(_ offset: Int) -> (UnsafeRawBufferPointer, Int) {
            offset < head.count ? (head, offset) : (rest, offset - head.count)
        }
        var offset = 0
        while offset < blocks {
            let (bytes, at) = part(offset)
            @inline(__always) func word(_ position: Int) -> UInt64 {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            }
            var words = (word(at), word(at + 8), word(at + 16), word(at + 24))
            if offset < header {
                for excluded in [SnapshotLayout.checksumOffset, SnapshotLayout.supersededOffset]
                where excluded >= offset && excluded < offset + 32 {
                    switch (excluded - offset) / 8 {
                    case 0: words.0 = 0
                    case 1: words.1 = 0
                    case 2: words.2 = 0
                    default: words.3 = 0
                    }
                }
            }
            lanes = (mix(lanes.0, words.0), mix(lanes.1, words.1), mix(lanes.2, words.2), mix(lanes.3, words.3))
            offset += 32
        }
        var value = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while offset < count {
            // Only a file shorter than its header has excluded words here; they count as zero too.
            let inExcluded =
                (offset >= SnapshotLayout.checksumOffset && offset < SnapshotLayout.checksumOffset + 8)
                || (offset >= SnapshotLayout.supersededOffset && offset < SnapshotLayout.supersededOffset + 8)
            let (bytes, at) = part(offset)
            value = (value ^ UInt64(inExcluded ? 0 : bytes[at])) &* 0x0000_0100_0000_01b3
            offset += 1
        }
        return value ^ (value >> 29)
    }
}

/// The byte layout of a snapshot file, version 1: read in place, little-endian, 32-bit offsets.
///
/// ```
/// header (128 bytes)
///   0 magic "FRSNAP\r\n"   8 version u32   12 header size u32   16 generation u64
///  24 checksum u64 (of the whole file with these 8 bytes as zero)   32 file size u64
///  40 faces (count u32, offset u32)   48 families   56 axes   64 PostScript map (slots, offset)
///  72 full-name map   80 family-key map   88 strings (size u32, offset u32)   96…127 zero
/// face (88 bytes): six strings (offset u32, length u32 into the string table: PostScript
///   name, family, subfamily, full name, file, format), weight i32, width i32, index i32,
///   instance i32, flags u32 (italic, oblique, colour, has instance), first axis u32,
///   axis count u32, 4 zero bytes, file size i64
/// axis (32 bytes): tag string, minimum f64, default f64, maximum f64
/// family (312 bytes): name string, key string, first face u32, face count u32, then the
///   default rule's composed name for each step and style (18 slots of 16 bytes: name
///   string, kind u32 — 0 missing, 1 found, 2 misfit — face u32)
/// map: a power-of-two number of 8-byte slots (hash u32, entry + 1 u32; 0 is empty),
///   linear probing; the hash is ``SnapshotHash`` of the lower-cased name (of the family key)
/// ```
/// Faces are in ``FontIndex/faces`` order, so a family's faces are contiguous.
enum SnapshotLayout {
    /// The first eight bytes of every snapshot.
    static let magic: [UInt8] = Array("FRSNAP\r\n".utf8)
    /// The layout version this code reads and writes.
    static let version: UInt32 = 2
    /// The size of the header.
    static let headerSize = 128
    /// The size of a face record: six string references, weight, width class, index,
    /// instance, flags, first axis, axis count, first coordinate, file size (at 80), then the
    /// width percentage (88), italic angle (96), `head.fontRevision` (104) and the coordinate
    /// count (112, its first entry at 76; a named instance's coordinates are kept in the axis
    /// table as records whose minimum, default and maximum are the coordinate).
    static let faceSize = 120
    /// The size of an axis record.
    static let axisSize = 32
    /// The number of composed-name slots of a family: nine steps, upright and italic.
    static let slotCount = 18
    /// The size of a family record.
    static let familySize = 24 + slotCount * 16
    /// The size of a map slot.
    static let mapSlotSize = 8
    /// Where the checksum lies in the header.
    static let checksumOffset = 24

    /// Header fields, by byte offset.
    enum Header {
        /// Byte offsets of the header's fields (count, offset pairs from `faces` on).
        static let version = 8, headerSize = 12, generation = 16, checksum = 24, fileSize = 32
        static let faces = 40, families = 48, axes = 56, postscriptMap = 64, fullNameMap = 72, familyMap = 80
        static let strings = 88
    }

    /// Face flag bits.
    enum Flag {
        /// The face's style and colour bits.
        static let italic: UInt32 = 1, oblique: UInt32 = 2, color: UInt32 = 4, hasInstance: UInt32 = 8
    }
}

/// The byte layout of a snapshot file, version 8: read in place, little-endian, 32-bit offsets.
///
/// A file has a **public part** (header and everything a resolve needs) and, in the daemon's own
/// `index.snapshot`, a **registry part** after it (``Header/publicEnd``): the file table, the
/// directory manifest, the scan problems and the configuration stamp, which prove the index
/// current at a warm start. The published file is the public part alone (its `publicEnd` is its
/// size): the registry part names the files of private registrations and is never published.
///
/// ```
/// header (216 bytes)
///   0 magic "FRSNAP\r\n"   8 version u32   12 header size u32   16 generation u64
///  24 checksum u64 (of the whole file with these 8 bytes as zero)   32 file size u64
///  40 faces (count u32, offset u32)   48 families   56 axes   64 PostScript map (slots, offset)
///  72 full-name map   80 family-key map   88 strings (size u32, offset u32)
///  96 weights (count u32, offset u32)   104 rules (count u32, offset u32)
/// 112 superseded u64: zero while the file is the current snapshot; the daemon writes the next
///     generation here, into the replaced file, after renaming a new one over it (not checksummed)
/// 120 public end u64: the size of the public part (the file size when there is no registry part)
/// 128 coverage (count of u32 values, offset): every face's code-point ranges, start/end pairs
/// 136 files (count u32, offset u32)   144 file faces (count, offset)   152 directories (count, offset)
/// 160 problems (count, offset)   168 registry strings (size, offset)   176 configuration stamp u64
/// 184 registry flags u32 (see ``RegistryFlag``)   188…191 zero
/// 192 duplicate groups (count u32, offset u32)   200 their losers (count, offset)
/// 208 text coverage (count of u32 values, offset): the registry-wide coverage index `ResolveText`'s
///     fallback reads in place (layout 8, issue 29); empty when the writer left it out
/// The checksum covers every byte of the file (public and registry part) but the checksum and
/// the superseded mark, in four independent 64-bit lanes.
/// face (240 bytes): six strings (offset u32, length u32 into the string table: PostScript
///   name, family, subfamily, full name, file, format), weight i32, width i32, index i32,
///   instance i32, flags u32 (see ``Flag``), first axis u32, axis count u32, first coordinate
///   u32, file size i64, width percentage f64, italic angle f64, fontRevision f64, coordinate
///   count u32, 4 zero bytes, then what matching needs (``FaceMatcher/Traits``): width range
///   2×f64, oblique-angle range 2×f64, weight range 2×i32, trait bits u32 (see ``Trait``), 4 zero bytes,
///   then the coverage: first value u32 and value count u32 in the coverage table, and the
///   languages string (fontconfig's tags joined by spaces), then the metrics (issue 27, layout 6):
///   units per em, hhea ascender, descender, line gap, typo ascender, descender, line gap,
///   usWinAscent, usWinDescent, cap height, x-height (11×i32), USE_TYPO_METRICS u32 (0 or 1),
///   then (layout 7) the metrics variation string: the `MVAR` deltas a variable face's metrics
///   take at other coordinates, in ``MetricsVariationSlot/encoded``'s text form (empty for none)
/// axis (32 bytes): tag string, minimum f64, default f64, maximum f64
/// family (352 bytes): name string, key string, first face u32, face count u32 (every face of
///   the family in the face table, duplicates that lost included), then the default rule's
///   composed name for each step and style (18 slots of 16 bytes: name string, kind u32 — 0
///   missing, 1 found, 2 misfit — face u32), then the default rule's familyName string and
///   source string, family flags u32 (see ``FamilyFlag``), first weight u32 and the number of
///   registered weights upright, italic and oblique (3×u32) in the weight table
/// weight: i32, the registered weights of each family and style, lightest first
/// rule (16 bytes): the rule file's path string and the rule's JSON string (``RuleSet``'s wire form)
/// duplicate group (16 bytes): kind u32 (0 PostScript name, 1 style), winner's face u32, first
///   loser u32, loser count u32, in ``FontIndex/duplicates`` order (``DuplicateGroup``)
/// loser (8 bytes): face u32, reason u32 (0 older revision, 1 variable instance, 2 later
///   directory, 3 later path; an older revision's figures are the two faces' fontRevision)
/// map: a power-of-two number of 8-byte slots (hash u32, entry + 1 u32; 0 is empty),
///   linear probing; the hash is ``SnapshotHash`` of the lower-cased name (of the family key)
/// ```
/// Registry part (its strings in a string table of its own):
/// file (48 bytes): path string, device u64, inode u64, size i64, modification time (ns) i64,
///   first file face u32, face count u32 (positions in the face table, u32 each); sorted by path bytes
/// directory (40 bytes): path string, device u64, inode u64, then for a directory the count and
///   hash of its ``DirectoryContents`` (i64, u64), for a root file its size i64 and modification
///   time (ns) i64: every directory the scan walked and every registered root, in the order met
/// problem (16 bytes): path string and reason string; with ``RegistryFlag/problemKinds``, one
///   byte per problem after the problem table, its ``ScanProblem/Kind`` (``ScanProblem/Kind/code``)
/// Faces are in ``FontIndex/faces`` order, so a family's faces are contiguous. A resolve
/// reads one family record, the traits of its faces and decodes only the face it answers with.
enum SnapshotLayout {
    /// The first eight bytes of every snapshot.
    static let magic: [UInt8] = Array("FRSNAP\r\n".utf8)
    /// The layout version this code reads and writes.
    ///
    /// Version 5 (issue 29) added the duplicate groups to the public part; version 6 (issue 27)
    /// the face metrics, version 7 (issue 27) the metrics variation, version 8 (issue 29) the text
    /// coverage section. A file of another version is refused by ``SnapshotValidator`` and the
    /// registry scans afresh and rewrites it.
    static let version: UInt32 = 8
    /// The size of the header.
    static let headerSize = 216
    /// The size of a face record (the field offsets are in ``Face``).
    static let faceSize = 240
    /// The size of a file record of the registry part.
    static let fileSize = 48
    /// The size of a directory record of the registry part.
    static let directorySize = 40
    /// The size of a problem record of the registry part.
    static let problemSize = 16
    /// The size of an axis record.
    static let axisSize = 32
    /// The number of composed-name slots of a family: nine steps, upright and italic.
    static let slotCount = 18
    /// The size of a family record (the field offsets are in ``Family``).
    static let familySize = Family.end
    /// The size of a map slot.
    static let mapSlotSize = 8
    /// The size of a rule record.
    static let ruleSize = 16
    /// The size of a duplicate group record.
    static let duplicateSize = 16
    /// The size of a duplicate loser record.
    static let loserSize = 8
    /// Where the checksum lies in the header.
    static let checksumOffset = 24
    /// Where the superseded mark lies in the header: written in place, so the checksum counts it as zero.
    static let supersededOffset = 112

    /// Header fields, by byte offset.
    enum Header {
        /// Byte offsets of the header's fields (count, offset pairs from `faces` on).
        static let version = 8, headerSize = 12, generation = 16, checksum = 24, fileSize = 32
        static let faces = 40, families = 48, axes = 56, postscriptMap = 64, fullNameMap = 72, familyMap = 80
        static let strings = 88, weights = 96, rules = 104, superseded = 112
        /// The public part's size, the coverage table, then the registry part.
        static let publicEnd = 120, coverage = 128, files = 136, fileFaces = 144, directories = 152
        static let problems = 160, registryStrings = 168, configStamp = 176, registryFlags = 184
        /// The duplicate groups and their losers (public: the trace names the losers).
        static let duplicates = 192, duplicateLosers = 200
        /// The text coverage section (public: what `ResolveText`'s registry-wide fallback reads).
        static let textCoverage = 208
    }

    /// Registry flag bits.
    enum RegistryFlag {
        /// Some face lost to a duplicate (the groups are in the public part).
        static let hasDuplicates: UInt32 = 1
        /// The problems' kinds follow the problem table (issue 23); an index file without them,
        /// of an earlier release, is not served at a warm start (its file table still spares parsing).
        static let problemKinds: UInt32 = 2
    }

    /// Face record fields, by byte offset from the record's start.
    enum Face {
        /// The six string references, then the integers and floats.
        static let postscriptName = 0, family = 8, subfamily = 16, fullName = 24, file = 32, format = 40
        static let weight = 48, width = 52, index = 56, instance = 60, flags = 64, firstAxis = 68, axisCount = 72
        static let firstCoordinate = 76, fileSize = 80, widthPercent = 88, italicAngle = 96, fontRevision = 104
        static let coordinateCount = 112
        /// The matching traits.
        static let widthMinimum = 120, widthMaximum = 128, angleMinimum = 136, angleMaximum = 144
        static let weightMinimum = 152, weightMaximum = 156, traits = 160
        /// The coverage.
        static let firstRange = 168, rangeValues = 172, languages = 176
        /// The metrics: eleven i32 values in ``metricValues(_:)`` order, then the typo bit (u32).
        static let metrics = 184, useTypoMetrics = 228
        /// The metrics variation string (``MetricsVariationSlot/encoded``).
        static let metricsVariation = 232

        /// The metrics' integer values in the order the record keeps them.
        static func metricValues(_ m: FaceMetrics) -> [Int] {
            [
                m.unitsPerEm, m.hhea.ascender, m.hhea.descender, m.hhea.lineGap, m.typo.ascender, m.typo.descender,
                m.typo.lineGap, m.win.ascent, m.win.descent, m.capHeight, m.xHeight,
            ]
        }

        /// Metrics from the values in ``metricValues(_:)`` order and the typo bit.
        static func metrics(values v: [Int], useTypoMetrics: Bool) -> FaceMetrics {
            FaceMetrics(
                unitsPerEm: v[0], hhea: LineMetrics(ascender: v[1], descender: v[2], lineGap: v[3]),
                typo: LineMetrics(ascender: v[4], descender: v[5], lineGap: v[6]),
                win: WindowsMetrics(ascent: v[7], descent: v[8]), useTypoMetrics: useTypoMetrics,
                capHeight: v[9], xHeight: v[10])
        }
    }

    /// Family record fields, by byte offset from the record's start.
    enum Family {
        /// The name and key strings, the face range, the slots, then the rule strings, flags and weights.
        static let name = 0, key = 8, firstFace = 16, faceCount = 20, slots = 24
        static let ruleFamilyName = slots + slotCount * 16, ruleSource = ruleFamilyName + 8
        static let flags = ruleSource + 8, firstWeight = flags + 4, weightCounts = firstWeight + 4
        /// The record's size.
        static let end = weightCounts + 12 + 4
    }

    /// Face flag bits.
    enum Flag {
        /// The face's style and colour bits.
        static let italic: UInt32 = 1, oblique: UInt32 = 2, color: UInt32 = 4, hasInstance: UInt32 = 8
        /// A duplicate that lost to another file's copy: kept for `list`, never resolved or found by name.
        static let duplicateLoser: UInt32 = 0x10
        /// A face the snapshot must not serve (disabled, or visible only to some users): readers
        /// skip it in name lookups and family matching. Reserved for the per-user and
        /// enable/disable work; the writer sets it for no face yet.
        static let hidden: UInt32 = 0x20
        /// The faces no lookup returns.
        static let notServed: UInt32 = duplicateLoser | hidden
    }

    /// Trait bits of a face record (``FaceMatcher/Traits``).
    enum Trait {
        /// Whether the face can be drawn upright, italic, oblique, and has an `ital` axis.
        static let upright: UInt32 = 1, italic: UInt32 = 2, oblique: UInt32 = 4, italicAxis: UInt32 = 8
    }

    /// Family flag bits.
    enum FamilyFlag {
        /// The default rule's familyName was taken from the registered PostScript names.
        static let derivedRoot: UInt32 = 1
        /// Some face of the family won over a duplicate: its groups are among the file's
        /// duplicate groups (the trace names the losers).
        static let hasDuplicates: UInt32 = 2
        /// Reserved: the family must not be served from the snapshot at all (the writer sets it for none yet).
        static let hidden: UInt32 = 4
    }
}

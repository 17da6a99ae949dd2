import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// A damaged or hostile snapshot is refused with a typed error, and never crashes the reader.
@Suite struct SnapshotValidationTests {
    static let valid = SnapshotWriter.bytes(of: Fixtures.registry.index, generation: 3)

    /// Bytes with the checksum recomputed, as a deliberate forger would.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        SnapshotWriter.reseal(&bytes)
        return bytes
    }

    static func error(_ bytes: [UInt8]) -> SnapshotError? {
        do {
            _ = try MappedSnapshot(bytes: bytes, path: "test")
            return nil
        } catch {
            return error
        }
    }

    @Test func theWrittenBytesAreValid() throws {
        let snapshot = try MappedSnapshot(bytes: Self.valid)
        #expect(snapshot.generation == 3)
    }

    @Test func otherBytesAreNotASnapshot() {
        #expect(Self.error([]) == .notASnapshot(path: "test"))
        #expect(Self.error(Array("{\"faces\": []}".utf8)) == .notASnapshot(path: "test"))
    }

    @Test func anotherVersionIsAVersionMismatch() {
        var bytes = Self.valid
        bytes[8] = UInt8(SnapshotLayout.version + 1)
        #expect(
            Self.error(bytes)
                == .versionMismatch(
                    path: "test", found: SnapshotLayout.version + 1, expected: SnapshotLayout.version))
    }

    @Test(arguments: [9, 127, 128, 1000])
    func aShortFileIsTruncated(keeping count: Int) {
        let error = Self.error(Array(Self.valid.prefix(count)))
        if case .truncated(_, let size, _) = error {
            #expect(size == count)
        } else {
            Issue.record("\(String(describing: error))")
        }
    }

    @Test func aChangedByteFailsTheChecksum() {
        var bytes = Self.valid
        bytes[bytes.count / 2] ^= 0x40
        #expect(Self.error(bytes) == .checksumMismatch(path: "test"))
    }

    @Test func anOffsetOutsideItsTableIsOutOfBounds() {
        // The first face's PostScript name, moved past the string table (checksum made to match).
        var bytes = Self.valid
        let faces = Int(bytes[44]) | Int(bytes[45]) << 8 | Int(bytes[46]) << 16
        bytes[faces + 3] = 0x7f
        #expect(Self.error(Self.resealed(bytes)) == .outOfBounds(path: "test", what: "a face's name"))
        // A family whose faces run past the face table.
        var family = Self.valid
        let families = Int(family[52]) | Int(family[53]) << 8 | Int(family[54]) << 16
        family[families + 21] = 0xff
        #expect(Self.error(Self.resealed(family)) == .outOfBounds(path: "test", what: "a family's faces"))
        // A map whose size is not a power of two.
        var map = Self.valid
        map[64] = 3
        map[65] = 0
        #expect(Self.error(Self.resealed(map)) == .outOfBounds(path: "test", what: "the PostScript-name map's size"))
    }

    @Test func randomDamageWithAMatchingChecksumNeverCrashesTheReader() throws {
        var random = SeededRandom(seed: 13)
        var refused = 0
        for _ in 0..<300 {
            var bytes = Self.valid
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                // Damage the header and the tables more often than the strings.
                let limit = Int.random(in: 0...1, using: &random) == 0 ? 256 : bytes.count
                bytes[Int.random(in: 0..<limit, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let snapshot = try? MappedSnapshot(bytes: Self.resealed(bytes)) else {
                refused += 1
                continue
            }
            let resolver = SnapshotResolver(snapshot: snapshot)
            for family in ["Fixture Sans", "Lato", "Nothing"] {
                _ = try? resolver.resolve(ResolveQuery(family: family, weight: .bold, boldText: true))
            }
            _ = snapshot.face(postscriptName: "FixtureSans-Bold")
            _ = snapshot.face(fullName: "Fixture Sans Bold")
            _ = (0..<snapshot.faceCount).map { snapshot.face(at: $0) }
        }
        #expect(refused > 0)
    }

    @Test func checkedAtAccessTheValidBytesAnswerAsCheckedWholeAndFindNoDamage() throws {
        let whole = try MappedSnapshot(bytes: Self.valid)
        let lazy = try MappedSnapshot(bytes: Self.valid, checks: .atAccess)
        #expect(lazy.generation == 3 && lazy.faceCount == whole.faceCount && lazy.familyCount == whole.familyCount)
        #expect((0..<lazy.faceCount).map { lazy.face(at: $0) } == (0..<whole.faceCount).map { whole.face(at: $0) })
        #expect(
            (0..<lazy.familyCount).map { lazy.family(at: $0)?.faces }
                == (0..<whole.familyCount).map {
                    whole.family(at: $0)?.faces
                })
        let query = ResolveQuery(family: "Fixture Sans", weight: .bold)
        #expect(
            try SnapshotResolver(snapshot: lazy).resolve(query) == SnapshotResolver(snapshot: whole).resolve(query))
        #expect(lazy.damage == nil)
    }

    @Test func checkedAtAccessTheChecksumIsNotReadAndAChangedStringIsServedAsWritten() throws {
        // A byte of the string table changed, the checksum left as it was: refused whole, opened at access.
        var bytes = Self.valid
        let field = SnapshotLayout.Header.strings
        let count = Int(bytes[field]) | Int(bytes[field + 1]) << 8 | Int(bytes[field + 2]) << 16
        let offset = Int(bytes[field + 4]) | Int(bytes[field + 5]) << 8 | Int(bytes[field + 6]) << 16
        #expect(count > 0)
        bytes[offset + count - 1] ^= 0x01  // the last byte of the string table
        #expect(Self.error(bytes) == .checksumMismatch(path: "test"))
        let lazy = try MappedSnapshot(bytes: bytes, path: "test", checks: .atAccess)
        #expect(lazy.family(named: "Fixture Sans") != nil)
        #expect(lazy.damage == nil)
    }

    @Test func checkedAtAccessAFamilyWhoseFacesRunPastTheTableIsAbsentAndReportedAsDamage() throws {
        var bytes = Self.valid
        let families = Int(bytes[52]) | Int(bytes[53]) << 8 | Int(bytes[54]) << 16
        bytes[families + 21] = 0xff
        let lazy = try MappedSnapshot(bytes: bytes, path: "test", checks: .atAccess)
        #expect(lazy.damage == nil, "nothing is read until a lookup reads it")
        #expect(lazy.family(at: 0) == nil)
        #expect(lazy.damage == .outOfBounds(path: "test", what: "a family's faces"))
    }

    @Test func checkedAtAccessAFaceNameOutsideTheStringTableIsAbsentAndReportedAsDamage() throws {
        var bytes = Self.valid
        let faces = Int(bytes[44]) | Int(bytes[45]) << 8 | Int(bytes[46]) << 16
        bytes[faces + 3] = 0x7f
        let lazy = try MappedSnapshot(bytes: bytes, path: "test", checks: .atAccess)
        #expect(lazy.face(at: 0) == nil)
        #expect(lazy.damage == .outOfBounds(path: "test", what: "a face's name"))
        #expect(lazy.face(at: 1) != nil, "the other faces are still read")
    }

    @Test func checkedAtAccessTheHeaderIsStillCheckedWhenOpened() {
        var map = Self.valid
        map[64] = 3
        map[65] = 0
        #expect(throws: SnapshotError.outOfBounds(path: "test", what: "the PostScript-name map's size")) {
            try MappedSnapshot(bytes: map, path: "test", checks: .atAccess)
        }
        #expect(throws: SnapshotError.truncated(path: "test", size: 100, expected: SnapshotLayout.headerSize)) {
            try MappedSnapshot(bytes: Array(Self.valid.prefix(100)), path: "test", checks: .atAccess)
        }
    }

    @Test func checkedAtAccessRandomDamageNeverCrashesTheReaderAndIsReported() throws {
        var random = SeededRandom(seed: 29)
        var damaged = 0
        for _ in 0..<300 {
            var bytes = Self.valid
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let limit = Int.random(in: 0...1, using: &random) == 0 ? 256 : bytes.count
                bytes[Int.random(in: 0..<limit, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let snapshot = try? MappedSnapshot(bytes: bytes, checks: .atAccess) else { continue }
            let resolver = SnapshotResolver(snapshot: snapshot)
            for family in ["Fixture Sans", "Lato", "Nothing"] {
                _ = try? resolver.resolve(ResolveQuery(family: family, weight: .bold, boldText: true))
            }
            _ = snapshot.face(postscriptName: "FixtureSans-Bold")
            _ = snapshot.face(fullName: "Fixture Sans Bold")
            _ = (0..<snapshot.faceCount).map { snapshot.face(at: $0) }
            _ = (0..<snapshot.familyCount).map { snapshot.family(at: $0)?.faces }
            if snapshot.damage != nil { damaged += 1 }
        }
        #expect(damaged > 0)
    }

    @Test func aFileOnDiskIsCheckedAsBytesAre() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let short = directory + "/short", garbage = directory + "/garbage", damaged = directory + "/damaged"
        #expect(FileManager.default.createFile(atPath: short, contents: Data(Self.valid.prefix(100))))
        #expect(FileManager.default.createFile(atPath: garbage, contents: Data(repeating: 0x41, count: 4096)))
        var bytes = Self.valid
        bytes[bytes.count - 1] ^= 1
        #expect(FileManager.default.createFile(atPath: damaged, contents: Data(bytes)))
        #expect(throws: SnapshotError.truncated(path: short, size: 100, expected: SnapshotLayout.headerSize)) {
            try MappedSnapshot(path: short)
        }
        #expect(throws: SnapshotError.notASnapshot(path: garbage)) { try MappedSnapshot(path: garbage) }
        #expect(throws: SnapshotError.checksumMismatch(path: damaged)) { try MappedSnapshot(path: damaged) }
        #expect(throws: SnapshotError.unreadable(path: directory, reason: "not a regular file")) {
            try MappedSnapshot(path: directory)
        }
    }

    @Test func aMissingFileIsUnreadable() {
        #expect(throws: SnapshotError.self) { try MappedSnapshot(path: "/nonexistent/index.snapshot") }
    }

    @Test func writingReplacesTheFileAndLeavesNoTemporaryFile() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        try SnapshotWriter.write(FontIndex(faces: [], generation: 1), directory: directory, name: "s")
        let old = try MappedSnapshot(path: directory + "/s")
        try SnapshotWriter.write(Fixtures.registry.index, directory: directory, name: "s", generation: 2)
        let new = try MappedSnapshot(path: directory + "/s")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["s"])
        // A reader of the old file keeps its pages after the rename.
        #expect(old.generation == 1 && old.faceCount == 0)
        #expect(new.generation == 2 && new.faceCount == Fixtures.registry.index.faces.count)
    }
}

/// A small deterministic generator (SplitMix64), so that a failure repeats.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// What version 3 adds: matching ranges checked, the superseded mark outside the checksum, rules and duplicates.
@Suite struct SnapshotLayoutV3Tests {
    @Test func aMatchingRangeWithItsMinimumAboveItsMaximumIsRefused() {
        var bytes = SnapshotValidationTests.valid
        let faces = Int(bytes[44]) | Int(bytes[45]) << 8 | Int(bytes[46]) << 16
        // The first face's weight range: minimum 1000, maximum as written (at most 1000 for fixtures: 900 or less).
        let at = faces + SnapshotLayout.Face.weightMinimum
        bytes.replaceSubrange(at..<at + 4, with: [0xff, 0xff, 0, 0])
        #expect(
            SnapshotValidationTests.error(SnapshotValidationTests.resealed(bytes))
                == .outOfBounds(path: "test", what: "a face's matching ranges"))
    }

    @Test func theSupersededMarkIsOutsideTheChecksumAndEndsCurrency() throws {
        var bytes = SnapshotValidationTests.valid
        #expect(try MappedSnapshot(bytes: bytes).isCurrent)
        bytes[SnapshotLayout.supersededOffset] = 4
        let marked = try MappedSnapshot(bytes: bytes)
        #expect(!marked.isCurrent)
    }

    @Test func theRulesComeBackFromTheFile() throws {
        let registry = SnapshotEquivalenceTests.bundled
        #expect(!registry.rules.rules.isEmpty)
        let snapshot = try MappedSnapshot(bytes: SnapshotWriter.bytes(of: registry.index, rules: registry.rules))
        #expect(snapshot.rules.rules == registry.rules.rules)
    }

    @Test func aDuplicateThatLostIsNeitherFoundByNameNorResolved() throws {
        let face = FaceRecord(
            postscriptName: "Dup-Bold", family: "Dup", subfamily: "Bold", fullName: "Dup Bold", weight: 700,
            italic: false, file: "/a/Dup-Bold.ttf", fileSize: 10)
        var copy = face
        copy.file = "/b/Dup-Bold.ttf"
        let index = FontIndex(faces: [face, copy], generation: 1, directories: ["/a", "/b"])
        #expect(!index.duplicates.isEmpty)
        let snapshot = try MappedSnapshot(bytes: SnapshotWriter.bytes(of: index))
        #expect(snapshot.face(postscriptName: "Dup-Bold") == index.face(postscriptName: "Dup-Bold"))
        let entry = try #require(snapshot.family(named: "Dup"))
        #expect(entry.faces == index.family(named: "Dup")?.faces)
        #expect(snapshot.servesInFull(family: "Dup"))
        let answer = try SnapshotResolver(snapshot: snapshot).resolve(ResolveQuery(family: "Dup", weight: .bold))
        #expect(answer.face.file == "/a/Dup-Bold.ttf")
        #expect(answer == (try Resolver(index: index).resolve(ResolveQuery(family: "Dup", weight: .bold))))
    }

    @Test func duplicateGroupsComeBackFromTheFileWithEveryLoserAndReason() throws {
        let face = FaceRecord(
            postscriptName: "Dup-Bold", family: "Dup", subfamily: "Bold", fullName: "Dup Bold", weight: 700,
            italic: false, file: "/a/x/Dup-Bold.ttf", fileSize: 10)
        var samePath = face, laterDirectory = face, older = face
        samePath.file = "/a/y/Dup-Bold.ttf"
        laterDirectory.file = "/b/Dup-Bold.ttf"
        older.file = "/a/0/Dup-Bold.ttf"
        older.fontRevision = face.fontRevision - 1
        let index = FontIndex(
            faces: [face, samePath, laterDirectory, older], generation: 1, directories: ["/a", "/b"])
        let reasons = Set(index.duplicates.flatMap { $0.losers.map(\.reason.code) })
        #expect(reasons == ["later-path", "later-directory", "older-revision"])
        let snapshot = try MappedSnapshot(bytes: SnapshotWriter.bytes(of: index))
        #expect(snapshot.duplicateGroups() == index.duplicates)
        #expect(snapshot.family(named: "Dup")?.duplicates == index.family(named: "Dup")?.duplicates)
        #expect(
            FontIndex(mapped: MappedIndex(snapshot: snapshot, problems: []), generation: 1).duplicates
                == index.duplicates)
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegService

/// The kept file classification's bytes (issue 29 item 3): read back as written, and a damaged
/// or cut file is not read at all (every file is then asked about again).
@Suite("The kept file classification is read back whole or not at all")
struct PersistedReadabilityFileTests {
    static let sample = PersistedReadability(
        files: [
            "/fonts/a.ttf": .init(
                device: 1, inode: 2, isPublic: true, fingerprint: FileFingerprint(device: 1, inode: 2, stamp: 3)),
            "/fonts/b.ttf": .init(
                device: 1, inode: 5, isPublic: false, fingerprint: FileFingerprint(device: 1, inode: 5, stamp: -7)),
            "/fonts/link.ttf": .init(device: 1, inode: 9, isPublic: true, fingerprint: nil),
        ],
        directories: [
            "/fonts": FileFingerprint(device: 1, inode: 8, stamp: 4), "/": .init(device: 1, inode: 2, stamp: 1),
        ])

    @Test func theBytesReadBackAsTheClassificationWithoutTheAnswersNeverReused() throws {
        let read = try #require(PersistedReadability(bytes: Self.sample.bytes))
        #expect(read == Self.sample)
        #expect(read.files["/fonts/link.ttf"] == nil, "an answer with no fingerprint is not kept")
        #expect(read.files["/fonts/b.ttf"]?.isPublic == false)
    }

    @Test func anyFlippedByteOrCutFileIsNotRead() {
        let bytes = Self.sample.bytes
        for at in bytes.indices {
            var damaged = bytes
            damaged[at] ^= 0x20
            #expect(PersistedReadability(bytes: damaged) == nil, "byte \(at) flipped")
        }
        for count in 0..<bytes.count {
            #expect(PersistedReadability(bytes: Array(bytes[0..<count])) == nil, "cut at \(count)")
        }
    }

    @Test func theFilesAreKeptInTheirPathsByteOrderAndReadInPlaceInIt() {
        var paths: [String] = []
        Self.sample.forEachFile { path, _ in
            paths.append(String(decoding: path, as: UTF8.self))
            return true
        }
        #expect(paths == ["/fonts/a.ttf", "/fonts/b.ttf"])
        #expect(Self.sample.fileCount == 2)
    }

    /// The order is what a warm start walks beside the index file's table: a file whose records
    /// are out of order is refused even with a hash that matches.
    @Test func filesOutOfOrderAreNotReadEvenWithAMatchingHash() throws {
        var bytes = Self.sample.bytes
        // The two file records are the same size ("/fonts/a.ttf", "/fonts/b.ttf"): swap their paths' last letters.
        let a = try #require(Self.find(Array("/fonts/a.ttf".utf8), in: bytes))
        let b = try #require(Self.find(Array("/fonts/b.ttf".utf8), in: bytes))
        bytes.swapAt(a + 7, b + 7)
        Self.rehash(&bytes)
        #expect(PersistedReadability(bytes: bytes) == nil)
    }

    /// A file the previous layout (version 1, any order, a byte-wise hash) wrote is not read:
    /// every file is asked about again and the file written anew.
    @Test func aFileOfTheEarlierLayoutIsNotRead() {
        var bytes = Array("fontreg readability 1\n".utf8)
        func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        put(0)
        put(1)
        put(UInt64("/fonts/a.ttf".utf8.count))
        bytes += "/fonts/a.ttf".utf8
        put(1)
        put(2)
        put(3)
        bytes.append(1)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        put(hash)
        #expect(PersistedReadability(bytes: bytes) == nil)
    }

    /// Where `needle` first occurs in `bytes`.
    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    /// Puts the hash of everything before the last eight bytes into them.
    static func rehash(_ bytes: inout [UInt8]) {
        let end = bytes.count - 8
        let hash = PersistedReadability.hash(bytes[..<end])
        withUnsafeBytes(of: hash.littleEndian) { bytes.replaceSubrange(end..., with: $0) }
    }

    @Test func theDirectoriesAboveAPathAreEveryPrefixUpToTheRootAndOddPathsHaveNone() {
        #expect(
            FileFingerprint.directories(above: "/usr/share/fonts/a.ttf") == [
                "/usr/share/fonts", "/usr/share", "/usr", "/",
            ])
        #expect(FileFingerprint.directories(above: "/a.ttf") == ["/"])
        for odd in ["a.ttf", "/usr//a.ttf", "/usr/./a.ttf", "/usr/../a.ttf", "/usr/", "/"] {
            #expect(FileFingerprint.directories(above: odd) == nil, "\(odd)")
        }
    }
}

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

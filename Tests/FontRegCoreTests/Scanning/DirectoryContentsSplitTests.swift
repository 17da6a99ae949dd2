import FontRegSystem
import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore

/// Issue 29 item 3: a warm start's check of a large directory shares the `fstatat`s of its
/// listing between two threads, chunk by chunk (``DirectoryContents/of(_:noting:splittingAt:)``).
/// What they find must add up to what the serial check finds, and a file changed, added, removed
/// or `chmod`ed at either end of the listing (the first chunk and the last, "either half") must
/// change the result as it does the serial one's. Real files in a temporary directory.
@Suite("A directory's check split between two threads finds what the serial one finds", .serialized)
struct DirectoryContentsSplitTests {
    /// A directory of 300 font-named files (each of its own size), a subdirectory, a link to a
    /// font file, a hidden file and a non-font file.
    struct Folder {
        let directory = TemporaryDirectory()
        var path: String { directory.file("fonts") }
        static let fontCount = 300

        init() throws {
            try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
            for i in 0..<Self.fontCount {
                try Data(repeating: UInt8(i & 0xFF), count: 16 + i).write(to: URL(fileURLWithPath: font(i)))
            }
            try FileManager.default.createSymbolicLink(atPath: path + "/link.otf", withDestinationPath: font(0))
            try Data("hidden".utf8).write(to: URL(fileURLWithPath: path + "/.uuid"))
            try Data("not a font".utf8).write(to: URL(fileURLWithPath: path + "/README.txt"))
        }

        func font(_ i: Int) -> String { path + "/" + String(format: "Font%04d.ttf", i) }

        /// The contents and the files seen, split between two threads from `threshold` entries.
        func contents(splittingAt threshold: Int) throws -> (DirectoryContents, SeenFiles) {
            var seen: SeenFiles? = SeenFiles()
            let contents = DirectoryContents.of(
                try FileDescriptor.open(path, as: .directory), noting: &seen, splittingAt: threshold)
            return (contents, try #require(seen))
        }

        /// The split check's contents, after checking that the serial one finds the same.
        func checked() throws -> DirectoryContents {
            let (split, splitSeen) = try contents(splittingAt: 2)
            let (serial, serialSeen) = try contents(splittingAt: .max)
            #expect(split == serial, "the two halves add up to the serial check")
            #expect(splitSeen.count == serialSeen.count)
            return split
        }

        /// The first and the last font file in listing order: the first chunk and the last.
        func firstAndLastListed() throws -> (first: String, last: String) {
            let names = try EntryNameList(listing: try FileDescriptor.open(path, as: .directory))
            var fonts: [String] = []
            names.forEach(in: 0..<names.count) { _, bytes in
                let name = String(decoding: bytes, as: UTF8.self)
                if name.hasPrefix("Font") { fonts.append(path + "/" + name) }
            }
            return (try #require(fonts.first), try #require(fonts.last))
        }
    }

    @Test func theTwoHalvesAddUpToTheSerialCheckAndNoteEveryFontFileOnce() throws {
        let folder = try Folder()
        let (split, seen) = try folder.contents(splittingAt: 2)
        let (serial, _) = try folder.contents(splittingAt: .max)
        #expect(split == serial)
        // 300 files, the link and the subdirectory; not the hidden file nor the README.
        #expect(split.count == Int64(Folder.fontCount) + 2)
        #expect(seen.count == Folder.fontCount, "every regular font file, in either half, not the link")
        for i in 0..<Folder.fontCount {
            let status = try Syscall.status(ofPath: folder.font(i), followLinks: false)
            #expect(seen.changeTime(device: status.device, inode: status.inode) == status.changedNanoseconds)
        }
    }

    @Test func theDefaultThresholdSplitsThisFolderAndAgreesWithTheSerialCheck() throws {
        let folder = try Folder()
        #expect(Folder.fontCount >= DirectoryContents.splitThreshold)
        #expect(try folder.contents(splittingAt: DirectoryContents.splitThreshold).0 == folder.checked())
    }

    @Test(arguments: [true, false])
    func aFileRewrittenInEitherHalfChangesTheContents(firstHalf: Bool) throws {
        let folder = try Folder()
        let before = try folder.checked()
        let listed = try folder.firstAndLastListed()
        try Data(repeating: 7, count: 5000).write(to: URL(fileURLWithPath: firstHalf ? listed.first : listed.last))
        #expect(try folder.checked() != before)
    }

    @Test(arguments: [true, false])
    func aFileRemovedFromEitherHalfChangesTheContents(firstHalf: Bool) throws {
        let folder = try Folder()
        let before = try folder.checked()
        let listed = try folder.firstAndLastListed()
        try FileManager.default.removeItem(atPath: firstHalf ? listed.first : listed.last)
        let after = try folder.checked()
        #expect(after != before)
        #expect(after.count == before.count - 1)
    }

    @Test(arguments: [true, false])
    func aChmodInEitherHalfChangesTheContentsAndTheChangeTimeSeen(firstHalf: Bool) throws {
        let folder = try Folder()
        let before = try folder.checked()
        let listed = try folder.firstAndLastListed()
        let file = firstHalf ? listed.first : listed.last
        usleep(20_000)  // past the kernel's clock tick, so that the status change time moves
        chmod(file, 0o600)
        #expect(try folder.checked() != before)
        let status = try Syscall.status(ofPath: file, followLinks: false)
        let (_, seen) = try folder.contents(splittingAt: 2)
        #expect(seen.changeTime(device: status.device, inode: status.inode) == status.changedNanoseconds)
    }

    @Test func aFileAddedChangesTheContents() throws {
        let folder = try Folder()
        let before = try folder.checked()
        try Data(repeating: 1, count: 99).write(to: URL(fileURLWithPath: folder.path + "/Added.otf"))
        let after = try folder.checked()
        #expect(after != before)
        #expect(after.count == before.count + 1)
    }

    @Test func filesAbsorbedPastTheMostPartsKeptApartAreStillFound() throws {
        let folder = try Folder()
        var seen = SeenFiles()
        // Each check's files as a part of its own: more parts than are kept apart.
        for _ in 0..<(SeenFiles.maximumParts + 2) {
            seen.absorb(try folder.contents(splittingAt: 2).1)
        }
        #expect(seen.count >= Folder.fontCount)
        for i in [0, Folder.fontCount / 2, Folder.fontCount - 1] {
            let status = try Syscall.status(ofPath: folder.font(i), followLinks: false)
            #expect(seen.changeTime(device: status.device, inode: status.inode) == status.changedNanoseconds)
        }
    }
}

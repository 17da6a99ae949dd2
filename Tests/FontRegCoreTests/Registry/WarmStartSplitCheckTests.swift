import FontRegSystem
import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore

/// Issue 29 item 3: a warm start's check of a font folder large enough to be split between two
/// threads (``DirectoryContents/splitThreshold``, chunk by chunk) still sees every font file: the files noted
/// for the readability classification (``SeenFiles``) are all of them, and a `chmod` of a file
/// in either half of the listing makes the next start cold, as with the serial check.
@Suite("A warm start's split check of a large folder sees every font file", .serialized)
struct WarmStartSplitCheckTests {
    /// A folder of copies of one fixture font, more than a split needs, and its index file.
    struct Folder {
        let fonts = Fixtures.temporaryDirectory()
        let cache = Fixtures.temporaryDirectory()
        let count = DirectoryContents.splitThreshold + 40

        init() throws {
            let source = Fixtures.families + "/NotoFixture-Regular.ttf"
            for i in 0..<count {
                try FileManager.default.copyItem(atPath: source, toPath: fonts + "/Copy\(i).ttf")
            }
        }

        func registry() throws -> FontRegistry {
            try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: cache))
        }

        func cleanUp() {
            Fixtures.cleanUp(fonts)
            Fixtures.cleanUp(cache)
        }

        /// The first and the last font file in listing order: the first chunk and the last.
        func firstAndLastListed() throws -> [String] {
            let names = try EntryNameList(listing: try FileDescriptor.open(fonts, as: .directory))
            var listed: [String] = []
            names.forEach(in: 0..<names.count) { _, bytes in
                listed.append(fonts + "/" + String(decoding: bytes, as: UTF8.self))
            }
            return [try #require(listed.first), try #require(listed.last)]
        }
    }

    @Test func theFilesSeenAreEveryFontFileOfBothHalves() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        _ = try folder.registry()
        let warm = try folder.registry()
        #expect(warm.startMode == .warm, "\(warm.startMode)")
        let seen = try #require(warm.takeWarmStartSeenFiles())
        #expect(seen.count == folder.count)
        for path in try folder.firstAndLastListed() {
            let status = try Syscall.status(ofPath: path, followLinks: false)
            #expect(seen.changeTime(device: status.device, inode: status.inode) == status.changedNanoseconds, "\(path)")
        }
    }

    @Test(arguments: [0, 1])
    func aChmodOfAFileInEitherHalfMakesTheNextStartCold(half: Int) throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        _ = try folder.registry()
        #expect(try folder.registry().startMode == .warm)
        usleep(20_000)  // past the kernel's clock tick, so that the status change time moves
        chmod(try folder.firstAndLastListed()[half], 0o600)
        let next = try folder.registry()
        #expect(next.startMode != .warm, "a chmod'ed file must be looked at again")
        #expect(try folder.registry().startMode == .warm, "and the start after that is warm again")
    }
}

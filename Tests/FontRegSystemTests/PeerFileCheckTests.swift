import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegSystem

/// The batch check behind who may see a face (issue 24): the kernel decides, as the identity
/// given, whether each file opens, links followed; `even` says whether everyone is treated alike.
@Suite struct PeerFileCheckTests {
    static let stranger: UInt32 = 0xFFFF_FFFE

    @Test func theKernelRefusesAStrangerALinkIntoARootOnlyDirectoryAndGrantsAnEvenFile() throws {
        try #require(geteuid() == 0, "taking another identity needs root")
        let directory = TemporaryDirectory()
        let vault = directory.file("vault")
        try FileManager.default.createDirectory(atPath: vault, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: vault + "/f.ttf", contents: Data("x".utf8)))
        #expect(FileManager.default.createFile(atPath: directory.file("open.ttf"), contents: Data("y".utf8)))
        #expect(FileManager.default.createFile(atPath: directory.file("uneven.ttf"), contents: Data("z".utf8)))
        chmod(vault, 0o700)
        chmod(vault + "/f.ttf", 0o644)
        chmod(directory.file("open.ttf"), 0o644)
        chmod(directory.file("uneven.ttf"), 0o604)  // others may read, the group may not
        symlink(vault + "/f.ttf", directory.file("link.ttf"))
        let paths = ["link.ttf", "open.ttf", "uneven.ttf"].map(directory.file)
        let checks = try #require(
            PeerFileAccess.checkMany(paths, uid: Self.stranger, gid: Self.stranger, groups: [], checkEven: true))
        #expect(checks[0].error == .permissionDenied && !checks[0].even)
        var status = stat()
        stat(directory.file("open.ttf"), &status)
        #expect(
            checks[1]
                == PeerFileAccess.Check(
                    error: nil, even: true, device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
        #expect(checks[2].error == nil && !checks[2].even, "0604 treats the group more narrowly than others")
        // Root reads all three, the link followed to the file it leads to.
        let root = try #require(PeerFileAccess.checkMany(paths, uid: 0, gid: 0, groups: [], checkEven: false))
        stat(vault + "/f.ttf", &status)
        #expect(root[0].error == nil && root[0].inode == UInt64(status.st_ino))
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegSystem

/// The permission check behind `OpenFace` (issue 15): the mode bits the kernel would pick for a
/// peer, and the walk from `/` that refuses links and unsearchable directories.
@Suite struct PeerFileModeTests {
    /// A status with this owner, group and mode.
    static func status(owner: UInt32, group: UInt32, mode: mode_t, directory: Bool = false) -> FileStatus {
        var info = stat()
        info.st_uid = owner
        info.st_gid = group
        info.st_mode = (directory ? S_IFDIR : S_IFREG) | mode
        return FileStatus(info)
    }

    @Test(
        arguments: [
            // owner, group, mode, peer uid, peer gid, may read
            (1000, 1000, 0o600, 1000, 1000, true), (1000, 1000, 0o600, 1001, 1000, false),
            (1000, 1000, 0o640, 1001, 1000, true), (1000, 1000, 0o604, 1001, 1001, true),
            (1000, 1000, 0o060, 1000, 1000, false),  // the owner's bits decide for the owner, even if the group's allow
            (1000, 1000, 0o000, 0, 0, true),
        ] as [(UInt32, UInt32, mode_t, UInt32, UInt32, Bool)])
    func readPermissionFollowsTheBitsTheKernelWouldPick(
        _ owner: UInt32, _ group: UInt32, _ mode: mode_t, _ uid: UInt32, _ gid: UInt32, _ allowed: Bool
    ) {
        let status = Self.status(owner: owner, group: group, mode: mode)
        #expect(PeerFileAccess.permits(status, uid: uid, gid: gid, bit: 0o4) == allowed)
    }

    @Test func aDirectoryWithoutSearchPermissionAndALinkOnTheWayAreRefused() throws {
        let directory = TemporaryDirectory()
        let secret = directory.file("secret")
        try FileManager.default.createDirectory(atPath: secret, withIntermediateDirectories: true)
        chmod(secret, 0o700)
        #expect(FileManager.default.createFile(atPath: secret + "/f.ttf", contents: Data("x".utf8)))
        chmod(secret + "/f.ttf", 0o644)
        #expect(throws: PeerFileAccess.Refusal.permissionDenied(path: secret)) {
            try PeerFileAccess.open(secret + "/f.ttf", uid: 65534, gid: 65534)
        }
        let (file, status) = try PeerFileAccess.open(secret + "/f.ttf", uid: 0, gid: 0)
        #expect(status.size == 1 && file.rawValue >= 0)
        symlink(secret, directory.file("link"))
        #expect(throws: PeerFileAccess.Refusal.symbolicLink(path: directory.file("link"))) {
            try PeerFileAccess.open(directory.file("link") + "/f.ttf", uid: 0, gid: 0)
        }
    }
}

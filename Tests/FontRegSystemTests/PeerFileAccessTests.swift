import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegSystem

/// `OpenFace` asks the kernel (issue 24): a descriptor is handed out only if the caller could
/// have opened the file itself, supplementary groups, ACLs and every directory on the path
/// counted, because the open runs with the caller's credentials.
@Suite(.serialized) struct PeerFileAccessTests {
    /// A group number no test user has as its primary group.
    static let group: UInt32 = 54_321

    /// A root-owned directory (0755) with one file in it, `mode` and group ``group``.
    static func file(mode: mode_t, directoryMode: mode_t = 0o755) throws -> (directory: String, file: String) {
        let directory = Fixtures.temporaryDirectory()
        chmod(directory, directoryMode)
        let file = directory + "/face.ttf"
        try FileManager.default.copyItem(atPath: Fixtures.families + "/NotoFixture-Regular.ttf", toPath: file)
        chown(file, 0, Self.group)
        chmod(file, mode)
        return (directory, file)
    }

    static func opens(_ path: String, _ user: TestUser, groups: [UInt32] = []) -> Bool {
        (try? PeerFileAccess.openAsPeer(path, uid: user.uid, gid: user.gid, groups: groups)) != nil
    }

    static func setfacl(_ arguments: String...) throws {
        let result = try runCommand(["/usr/bin/setfacl"] + arguments)
        try #require(result.status == 0, "setfacl: \(result.stderr) (scripts/setup-deps.sh --test installs acl)")
    }

    @Test func aFileReadableByOthersButNotByItsGroupIsRefusedToAMemberOfThatGroup() throws {
        try #require(getuid() == 0, "taking another user's credentials needs root")
        let user = try TestUser.a
        let (directory, file) = try Self.file(mode: 0o604)
        defer { Fixtures.cleanUp(directory) }
        #expect(Self.opens(file, user), "others may read it")
        // The kernel picks the group class for a member, even a supplementary one: no read.
        #expect(!Self.opens(file, user, groups: [Self.group]))
        let refusal = #expect(throws: PeerFileAccess.Refusal.self) {
            try PeerFileAccess.openAsPeer(file, uid: user.uid, gid: user.gid, groups: [Self.group])
        }
        #expect(refusal == .permissionDenied(path: file))
    }

    @Test func aFileReadableOnlyThroughASupplementaryGroupOpensForAMember() throws {
        try #require(getuid() == 0, "taking another user's credentials needs root")
        let user = try TestUser.a
        let (directory, file) = try Self.file(mode: 0o640)
        defer { Fixtures.cleanUp(directory) }
        #expect(Self.opens(file, user, groups: [Self.group]))
        #expect(!Self.opens(file, user))
    }

    @Test func anACLEntryDenyingTheUserOnTheFileOrOnADirectoryOfThePathIsHonoured() throws {
        try #require(getuid() == 0, "taking another user's credentials needs root")
        let user = try TestUser.a
        let (directory, file) = try Self.file(mode: 0o644)
        defer { Fixtures.cleanUp(directory) }
        #expect(Self.opens(file, user))
        try Self.setfacl("-m", "u:\(user.uid):---", file)
        #expect(!Self.opens(file, user), "the file's ACL denies the user")
        #expect(Self.opens(file, try TestUser.b), "and only that user")
        try Self.setfacl("-b", file)
        try Self.setfacl("-m", "u:\(user.uid):---", directory)
        #expect(!Self.opens(file, user), "the directory's ACL denies the user search")
        #expect(Self.opens(file, try TestUser.b))
    }

    /// Whether a stranger's check of `file` reports it even (readable by everyone as by its owner
    /// and group, no access ACL on it or on a directory of its path).
    static func isEven(_ file: String) throws -> Bool {
        let stranger: UInt32 = 0xFFFF_FFFE
        let checks = try #require(
            PeerFileAccess.checkMany([file], uid: stranger, gid: stranger, groups: [], checkEven: true))
        return checks.first?.error == nil && checks.first?.even == true
    }

    @Test func anAccessACLOnTheFileOrOnADirectoryOfItsPathMakesTheFileUneven() throws {
        try #require(getuid() == 0, "taking another user's credentials needs root")
        let user = try TestUser.a
        let (directory, file) = try Self.file(mode: 0o644)
        defer { Fixtures.cleanUp(directory) }
        #expect(try Self.isEven(file), "0644 in a 0755 directory, no ACL")
        // An entry that grants more, not less: the file is still uneven, since the ACL names a user.
        try Self.setfacl("-m", "u:\(user.uid):r--", file)
        #expect(!(try Self.isEven(file)), "the file's own ACL, read through its descriptor")
        try Self.setfacl("-b", file)
        #expect(try Self.isEven(file))
        try Self.setfacl("-m", "u:\(user.uid):r-x", directory)
        #expect(!(try Self.isEven(file)), "an ACL on the directory above it")
        try Self.setfacl("-b", directory)
        #expect(try Self.isEven(file))
        chmod(file, 0o604)
        #expect(!(try Self.isEven(file)), "others may read it, its group may not")
    }

    @Test func theDaemonsOwnCredentialsAreUntouchedAndLinksAreNotFollowed() throws {
        try #require(getuid() == 0, "taking another user's credentials needs root")
        let user = try TestUser.a
        let (directory, file) = try Self.file(mode: 0o600)
        defer { Fixtures.cleanUp(directory) }
        #expect(!Self.opens(file, user))
        // The thread that took the user's credentials is gone: this thread is still root.
        #expect(geteuid() == 0)
        #expect(FileManager.default.isReadableFile(atPath: file))
        let fd = open(file, O_RDONLY)
        #expect(fd >= 0)
        close(fd)
        let link = directory + "/link.ttf"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        chmod(file, 0o644)
        #expect(throws: PeerFileAccess.Refusal.symbolicLink(path: link)) {
            try PeerFileAccess.openAsPeer(link, uid: user.uid, gid: user.gid, groups: [])
        }
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegSystem

/// `Syscall.accessACL(ofPath:)`, which the kept file classification fingerprints each directory
/// with (issue 29 item 3): none on a plain directory, the bytes after `setfacl`, different bytes
/// for a different ACL, none again after `setfacl -b`.
@Suite struct AccessACLTests {
    static func setfacl(_ arguments: [String]) throws {
        let result = try runCommand(["/usr/bin/setfacl"] + arguments)
        try #require(result.status == 0, "setfacl \(arguments): \(result.stderr)")
    }

    @Test func aDirectorysAccessACLIsReadAsTheKernelKeepsItAndNoneIsNil() throws {
        let directory = TemporaryDirectory()
        let folder = directory.file("fonts")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o755)
        #expect(try Syscall.accessACL(ofPath: folder) == nil)
        try Self.setfacl(["-m", "u:\(TestUser.b.name):---", folder])
        let denying = try #require(try Syscall.accessACL(ofPath: folder))
        #expect(!denying.isEmpty)
        try Self.setfacl(["-m", "u:\(TestUser.b.name):r-x", folder])
        #expect(try Syscall.accessACL(ofPath: folder) != denying, "another entry, other bytes")
        try Self.setfacl(["-b", folder])
        #expect(try Syscall.accessACL(ofPath: folder) == nil)
        #expect(throws: SystemError.self) { try Syscall.accessACL(ofPath: directory.file("missing")) }
    }
}

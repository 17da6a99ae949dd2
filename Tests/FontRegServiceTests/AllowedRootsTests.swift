import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegService

@Suite("allowed roots")
struct AllowedRootsTests {
    @Test func acceptsFilesAndDirectoriesInsideARootWithSymlinksResolved() throws {
        let directory = TemporaryDirectory()
        let root = directory.file("root")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/sub/a.ttf"))
        try FileManager.default.createSymbolicLink(atPath: root + "/link.ttf", withDestinationPath: root + "/sub/a.ttf")
        let roots = AllowedRoots([root])
        #expect(try roots.validate(root + "/sub") == root + "/sub")
        #expect(try roots.validate(root + "/link.ttf") == root + "/sub/a.ttf")
        #expect(try roots.validate(root) == root)
    }

    @Test func aSiblingWithTheRootAsPrefixIsOutside() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("fonts"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.file("fontsevil"), withIntermediateDirectories: true)
        #expect(throws: PathRefusal.self) {
            try AllowedRoots([directory.file("fonts")]).validate(directory.file("fontsevil"))
        }
    }

    @Test func refusesRelativeEmptyAndNulPathsBeforeLookingAtThem() {
        let roots = AllowedRoots(["/"])
        #expect(throws: PathRefusal.notAbsolute("a/b")) { try roots.validate("a/b") }
        #expect(throws: PathRefusal.malformed("")) { try roots.validate("") }
        #expect(throws: PathRefusal.malformed("/a\u{0}b")) { try roots.validate("/a\u{0}b") }
        #expect(throws: PathRefusal.parentReference("/usr/../etc")) { try roots.validate("/usr/../etc") }
    }

    @Test func refusesAFIFOWithoutOpeningIt() throws {
        let directory = TemporaryDirectory()
        #expect(mkfifo(directory.file("p.ttf"), 0o644) == 0)
        // Opening a FIFO with no writer would block forever; validate returns at once.
        #expect(throws: PathRefusal.notRegularFileOrDirectory(path: directory.file("p.ttf"), kind: "FIFO")) {
            try AllowedRoots([directory.path]).validate(directory.file("p.ttf"))
        }
    }
}

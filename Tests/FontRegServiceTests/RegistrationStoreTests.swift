import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegService

@Suite("persisted registrations")
struct RegistrationStoreTests {
    @Test func savedPathsLoadBackAndNoTemporaryFileIsLeft() throws {
        let directory = TemporaryDirectory()
        let store = RegistrationStore(directory: directory.file("state"))
        #expect(try store.load() == [])
        try store.save(["/a", "/b c"])
        #expect(try store.load() == ["/a", "/b c"])
        try store.save(["/b c"])
        #expect(try store.load() == ["/b c"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("state")) == ["registrations.json"])
    }

    @Test func ownersAreSavedBesideThePathsAndAFileWithoutThemStillLoads() throws {
        let directory = TemporaryDirectory()
        let store = RegistrationStore(directory: directory.path)
        // A file written before owners were kept: its paths load, with no owners.
        try Data(#"{"version": 1, "paths": ["/old"]}"#.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(try store.load() == ["/old"])
        #expect(store.loadOwners() == [:])
        try store.save(["/old", "/new"], owners: ["/new": 1000, "/gone": 7])
        #expect(try store.load() == ["/old", "/new"])
        #expect(store.loadOwners() == ["/new": 1000])
        // A malformed owner costs only that owner, never the paths.
        try Data(#"{"version": 1, "paths": ["/a", "/b"], "owners": {"/a": -1, "/b": 5}}"#.utf8)
            .write(to: URL(fileURLWithPath: store.path))
        #expect(try store.load() == ["/a", "/b"])
        #expect(store.loadOwners() == ["/b": 5])
    }

    @Test func aCorruptStateFileIsReportedNotOverwritten() throws {
        let directory = TemporaryDirectory()
        try Data("{oops".utf8).write(to: URL(fileURLWithPath: directory.file("registrations.json")))
        #expect(throws: PersistenceError.self) { try RegistrationStore(directory: directory.path).load() }
    }

    @Test func savingIntoAnUnwritablePlaceFailsWithTheErrno() {
        let store = RegistrationStore(directory: "/proc/fontreg-cannot-exist")
        #expect(throws: PersistenceError.self) { try store.save(["/a"]) }
    }
}

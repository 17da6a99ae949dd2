import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegService
@testable import Varlink

/// Issue 24: 1,000 users' persistent registrations made the next start take 415 s, one rescan of
/// every root per registration. They are restored in one change of the registry now.
@Suite("Restoring users' registrations at start", .serialized)
struct StartupRestoreTests {
    static let user: UInt32 = 4242

    @Test func usersRegistrationsAreRestoredInOneChangeAndARefusedOneLeavesTheOthers() throws {
        let fixture = try UserFontsService()
        var paths: [String] = []
        for n in 0..<40 {
            let fonts = n == 0 ? ["NotoFixture-Regular.ttf"] : []
            let path = fixture.ownDirectory("r\(n)", uid: Self.user, fonts: fonts)
            #expect(
                fixture.call("Register", ["paths": [.string(path)], "scope": "persistent"], uid: Self.user).error == nil
            )
            paths.append(path)
        }
        try FileManager.default.removeItem(atPath: paths[39])
        let restarted = try fixture.makeService()
        let before = restarted.registry.index.generation
        restarted.restorePlatformState()
        #expect(restarted.registry.index.generation == before + 1, "one change for every registration")
        let registered = Set(restarted.registry.registeredPaths)
        #expect(paths.dropLast().allSatisfy { registered.contains($0) })
        #expect(!registered.contains(paths[39]))
        #expect(restarted.platform.record(for: paths[39]) == nil)
        #expect(
            restarted.visibleFace(
                postscriptName: "NotoFixture-Regular", peer: PeerCredentials(pid: 0, uid: Self.user, gid: Self.user))
                != nil)
        #expect(
            restarted.visibleFace(
                postscriptName: "NotoFixture-Regular",
                peer: PeerCredentials(pid: 0, uid: Self.user + 1, gid: Self.user + 1)) == nil)
    }

    @Test func aBatchRefusesAPathInsideAnotherAndOneMissingAndRegistersTheRest() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        for name in ["a", "a/inner", "b"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: true)
        }
        let registry = try FontRegistry(configuration: RegistryConfiguration())
        let pending = ["a", "a/inner", "missing", "b", "b"].map {
            FontRegistry.PendingRegistration(path: directory + "/" + $0, confinedTo: nil, filesOwnedBy: nil)
        }
        let (_, refused) = registry.register(each: pending)
        #expect(registry.registeredPaths == [directory + "/a", directory + "/b"])
        #expect(refused.map(\.path) == ["a/inner", "missing", "b"].map { directory + "/" + $0 })
        #expect(
            refused.map(\.error) == [
                .alreadyRegistered(path: directory + "/a/inner", within: directory + "/a"),
                .fileNotFound(path: directory + "/missing"), .alreadyRegistered(path: directory + "/b"),
            ])
    }
}

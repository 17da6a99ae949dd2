import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegService
@testable import FontRegSystem
@testable import Varlink

/// Issue 15's pieces without a daemon: scopes, the state file, who a disabled entry hides, users' roots.
@Suite("scopes, platform state, user roots")
struct PlatformStateTests {
    @Test(arguments: [
        ("connection", RegistrationScope.connection), ("session", .session), ("runtime", .session),
        ("persistent", .persistent),
    ])
    func scopeNamesAreAccepted(name: String, scope: RegistrationScope) {
        #expect(RegistrationScope(name: name) == scope)
    }

    @Test func anUnknownScopeOrOneContradictingPersistIsInvalidParameter() throws {
        for parameters: [String: JSONValue] in [["scope": "forever"], ["scope": "session", "persist": true]] {
            let reader = try ParameterReader(
                VarlinkCall(method: "io.fontreg.Registry.Register", parameters: parameters),
                allowed: ["scope", "persist"])
            #expect(throws: VarlinkError.invalidParameter("scope")) { try RegistryService.scope(from: reader) }
        }
    }

    @Test func theStateRoundTripsThroughPrivatePerUserFiles() throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.file("state"))
        #expect(store.load().state == PlatformState())
        var state = PlatformState()
        state.registrations = [
            RegistrationRecord(path: "/home/a/.fonts", owner: 1001, scope: .persistent, isPrivate: true)
        ]
        state.disabled = [DisabledEntry(kind: .family, value: "Lato", owner: 0, systemWide: true)]
        state.boldText = [1001: true, 1002: false]
        try store.save(state, replacing: PlatformState())
        #expect(store.load().state == state)
        #expect(store.load().problems.isEmpty)
        var info = stat()
        for uid: UInt32 in [0, 1001, 1002] {
            #expect(stat(store.path(of: uid), &info) == 0 && info.st_mode & 0o777 == 0o600)
        }
        #expect(stat(store.folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func aUsersEntryHidesOnlyTheirOwnFacesAndAnAdministratorsHidesAll() {
        let face = FaceRecord(
            postscriptName: "Lato-Bold", family: "Lato", subfamily: "Bold", fullName: "Lato Bold", weight: 700,
            italic: false, file: "/home/a/.fonts/Lato-Bold.ttf")
        let users = DisabledEntry(kind: .family, value: "lato", owner: 1001, systemWide: false)
        #expect(users.disables(face, faceOwner: 1001))
        #expect(!users.disables(face, faceOwner: nil))
        #expect(!users.disables(face, faceOwner: 1002))
        let admins = DisabledEntry(kind: .face, value: "LATO-BOLD", owner: 0, systemWide: true)
        #expect(admins.disables(face, faceOwner: 1002) && admins.disables(face, faceOwner: nil))
        #expect(
            !DisabledEntry(kind: .file, value: "/other.ttf", owner: 0, systemWide: true).disables(face, faceOwner: nil))
    }

    @Test func usersRootsComeFromTheUserDatabaseNotTheEnvironment() throws {
        var settings = PlatformSettings()
        settings.userFontRoots = ["~/.fonts", "/srv/fonts", "relative"]
        let home = try #require(UserDatabase.home(of: 0))
        #expect(settings.roots(for: 0)?.roots == [home + "/.fonts", "/srv/fonts"])
        settings.userFonts = false
        #expect(settings.roots(for: 0) == nil)
        #expect(UserDatabase.home(of: 4_000_000_000) == nil)
    }
}

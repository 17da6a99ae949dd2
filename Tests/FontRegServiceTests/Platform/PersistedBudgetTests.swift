import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol
@testable import FontRegService
@testable import Varlink

/// Issue 24: one user made 4,400 persistent registrations with 3,797-byte paths and grew
/// `platform.json` past what start-up reads. Each user now has a budget of entries and bytes.
@Suite("Per-user budgets of the persisted state", .serialized)
struct PersistedBudgetTests {
    static let user: UInt32 = 4242
    static let other: UInt32 = 4243

    func persistedState(_ fixture: UserFontsService) -> PlatformState {
        PlatformStateStore(directory: fixture.state).load().state
    }

    @Test func aUserPastTheEntryBudgetIsRefusedNamingTheSettingAndNothingIsPersistedOrRegistered() throws {
        let fixture = try UserFontsService { $0.maximumPersistedEntriesPerUser = 3 }
        for n in 0..<3 {
            let path = fixture.ownDirectory("a\(n)", uid: Self.user)
            let reply = fixture.call("Register", ["paths": [.string(path)], "scope": "persistent"], uid: Self.user)
            #expect(reply.error == nil, "\(reply)")
        }
        let fourth = fixture.ownDirectory("a3", uid: Self.user)
        let refused = try #require(
            fixture.call("Register", ["paths": [.string(fourth)], "scope": "persistent"], uid: Self.user).error)
        #expect(refused.name == RegistryInterface.ErrorName.persistedStateLimitReached)
        #expect(refused.parameters["setting"] == "max-persisted-per-user")
        #expect(refused.parameters["maximum"] == 3)
        #expect(refused.parameters["requested"] == 4)
        #expect(persistedState(fixture).registrations.count == 3)
        #expect(!fixture.service.registry.registeredPaths.contains(fourth))
        // Disables and the Bold Text setting count too; a session registration is not persisted.
        let setting = try #require(fixture.call("SetBoldText", ["boldText": true], uid: Self.user).error)
        #expect(setting.name == RegistryInterface.ErrorName.persistedStateLimitReached)
        #expect(persistedState(fixture).boldText[Self.user] == nil)
        #expect(fixture.call("Register", ["paths": [.string(fourth)]], uid: Self.user).error == nil)
    }

    @Test func theByteBudgetCountsWhatTheStateFileWritesSoLongPathsReachItFirst() throws {
        let fixture = try UserFontsService { $0.maximumPersistedBytesPerUser = 2048 }
        let long = String(repeating: "d", count: 200)
        var refused: VarlinkError?
        var made = 0
        for n in 0..<20 where refused == nil {
            let path = fixture.ownDirectory("\(long)\(n)/\(long)/\(long)", uid: Self.user)
            var parent = (path as NSString).deletingLastPathComponent
            while parent.count > fixture.root.count {
                chown(parent, Self.user, Self.user)
                parent = (parent as NSString).deletingLastPathComponent
            }
            refused = fixture.call("Register", ["paths": [.string(path)], "scope": "persistent"], uid: Self.user).error
            if refused == nil { made += 1 }
        }
        let error = try #require(refused)
        #expect(error.name == RegistryInterface.ErrorName.persistedStateLimitReached)
        #expect(error.parameters["setting"] == "max-persisted-bytes-per-user")
        #expect(made >= 2 && made < 20)
        #expect(PersistedUsage(of: Self.user, in: persistedState(fixture)).bytes <= 2048)
    }

    @Test func oneUsersFullBudgetLeavesOtherUsersAndAdministratorsUnlimitedAndRemovingStillWorks() throws {
        let fixture = try UserFontsService(fonts: [Fixtures.fonts + "/color"]) {
            $0.maximumPersistedEntriesPerUser = 1
        }
        #expect(fixture.call("SetBoldText", ["boldText": true], uid: Self.user).error == nil)
        #expect(fixture.call("SetBoldText", ["boldText": true], uid: Self.other).error == nil)
        #expect(fixture.call("SetBoldText", ["boldText": true], uid: 0).error == nil)
        #expect(fixture.call("Disable", ["target": "FixtureColor-Regular"], uid: 0).error == nil)
        #expect(PersistedUsage(of: 0, in: persistedState(fixture)).entries == 2)
        let path = fixture.ownDirectory("b", uid: Self.user, fonts: ["NotoFixture-Regular.ttf"])
        #expect(fixture.call("Register", ["paths": [.string(path)]], uid: Self.user).error == nil)
        let disable = try #require(fixture.call("Disable", ["target": "NotoFixture-Regular"], uid: Self.user).error)
        #expect(disable.name == RegistryInterface.ErrorName.persistedStateLimitReached)
        // Going back to the default shrinks what the user holds: always allowed, even over a budget
        // lowered since.
        fixture.service.update(
            RegistryService.Settings(
                access: AccessPolicy(allowedUIDs: [0]), allowedRoots: AllowedRoots([]),
                platform: {
                    var platform = fixture.service.settings.withLock { $0.platform }
                    platform.maximumPersistedEntriesPerUser = 0
                    return platform
                }()))
        #expect(fixture.call("SetBoldText", ["boldText": .null], uid: Self.user).error == nil)
        #expect(persistedState(fixture).boldText == [Self.other: true, 0: true])
    }
}

import FontRegTestSupport
import Synchronization
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegService
@testable import Varlink

/// Issue 24, session 8: one user's own `Register` built a view (and its coverage index) for every
/// other owner of private fonts, so its cost grew with how many users held registrations. Now
/// only the public view and the changer's are built with the change; another owner's is built at
/// that owner's next query, and shows what a fresh build shows.
@Suite("A user's own change builds the views it changes", .serialized)
struct OwnChangeViewTests {
    static let owners: [UInt32] = [4301, 4302, 4303]
    static let fonts = ["AvenirFixture-Regular.ttf", "AvenirFixture-Bold.ttf", "AvenirFixture-Italic.ttf"]

    /// A service whose three owners each registered one font of their own, every view built once.
    static func threeOwners(share: Bool = false) throws -> UserFontsService {
        let fixture = try UserFontsService(fonts: [Fixtures.fonts + "/color"]) { $0.shareUserFonts = share }
        for (owner, font) in zip(owners, fonts) {
            let path = fixture.ownDirectory("own\(owner)", uid: owner, fonts: [font])
            #expect(fixture.call("Register", ["paths": [.string(path)]], uid: owner).error == nil)
        }
        for owner in owners { _ = fixture.service.view(for: peer(owner)) }
        return fixture
    }

    static func peer(_ uid: UInt32) -> PeerCredentials { PeerCredentials(pid: 0, uid: uid, gid: uid) }

    /// The PostScript names `uid` sees now.
    static func seen(_ fixture: UserFontsService, by uid: UInt32) -> Set<String> {
        Set(fixture.service.view(for: peer(uid)).index.faces.map(\.postscriptName))
    }

    @Test func aUsersOwnRegisterBuildsThePublicViewAndTheirsNotTheOtherOwnersViews() throws {
        let fixture = try Self.threeOwners()
        // Every other owner idle: none asked for its view within the window.
        fixture.service.platform.activeOwnerWindow.store(0, ordering: .relaxed)
        let changer = Self.owners[0]
        let path = fixture.ownDirectory("second", uid: changer, fonts: ["AvenirFixture-Medium.ttf"])
        #expect(fixture.call("Register", ["paths": [.string(path)]], uid: changer).error == nil)
        // The public view and the changer's (before: one for each of the three owners as well).
        #expect(fixture.service.keptViews.count == 2)
        #expect(Self.seen(fixture, by: changer).isSuperset(of: ["AvenirFixture-Regular", "AvenirFixture-Medium"]))
        // Another owner's view, built at its next query, shows its own font and none of the changer's.
        let other = Self.seen(fixture, by: Self.owners[1])
        #expect(other.contains("AvenirFixture-Bold"))
        #expect(other.isDisjoint(with: ["AvenirFixture-Regular", "AvenirFixture-Medium", "AvenirFixture-Italic"]))
        #expect(fixture.service.keptViews.count == 3)
        // As after an Unregister of the changer's new folder: the others' views were never stale.
        #expect(fixture.call("Unregister", ["paths": [.string(path)]], uid: changer).error == nil)
        #expect(!Self.seen(fixture, by: changer).contains("AvenirFixture-Medium"))
        #expect(Self.seen(fixture, by: Self.owners[2]).contains("AvenirFixture-Italic"))
        #expect(!Self.seen(fixture, by: Self.owners[2]).contains("AvenirFixture-Bold"))
    }

    @Test func withSharedUserFontsEveryOwnerSeesAUsersNewFontAtOnce() throws {
        let fixture = try Self.threeOwners(share: true)
        let changer = Self.owners[0]
        let path = fixture.ownDirectory("second", uid: changer, fonts: ["AvenirFixture-Medium.ttf"])
        #expect(fixture.call("Register", ["paths": [.string(path)]], uid: changer).error == nil)
        // Shared, every owner's view changed: all of them show the new font (one view, built with the change).
        for owner in Self.owners + [FileReadability.stranger] {
            #expect(Self.seen(fixture, by: owner).isSuperset(of: ["AvenirFixture-Medium", "AvenirFixture-Bold"]))
        }
        #expect(fixture.service.keptViews.count == 1)
    }

    @Test func aUsersOwnRegisterAlsoRebuildsTheViewsOfOwnersWhoAskedLately() throws {
        let fixture = try Self.threeOwners()
        let changer = Self.owners[0]
        // Only the second owner asks again after the set-up's queries are forgotten.
        fixture.service.platform.live.withLock { $0.ownersLastAsked = [:] }
        _ = Self.seen(fixture, by: Self.owners[1])
        let path = fixture.ownDirectory("second", uid: changer, fonts: ["AvenirFixture-Medium.ttf"])
        #expect(fixture.call("Register", ["paths": [.string(path)]], uid: changer).error == nil)
        // The public view, the changer's and the active owner's; not the idle third owner's.
        #expect(fixture.service.keptViews.count == 3)
        let active = Self.seen(fixture, by: Self.owners[1])
        #expect(active.contains("AvenirFixture-Bold") && !active.contains("AvenirFixture-Medium"))
        #expect(fixture.service.keptViews.count == 3, "the active owner's query found its view built with the change")
        _ = Self.seen(fixture, by: Self.owners[2])
        #expect(fixture.service.keptViews.count == 4, "the idle owner's view built at its query")
    }

    @Test func warmingViewsDoesNotMakeAnOwnerActive() throws {
        let fixture = try Self.threeOwners()
        fixture.service.platform.live.withLock { $0.ownersLastAsked = [:] }
        fixture.service.warmViews()
        #expect(fixture.service.platform.live.withLock { $0.ownersLastAsked.isEmpty })
        _ = Self.seen(fixture, by: Self.owners[2])
        #expect(fixture.service.platform.live.withLock { Set($0.ownersLastAsked.keys) } == [Self.owners[2]])
    }
}

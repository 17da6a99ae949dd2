import FontRegTestSupport
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegService
@testable import Varlink

/// Issue 24: one user disabled one of its own faces, then 300 uids each queried twice: every uid
/// got a view of its own (RSS 75 MB → 810 MB). Views are keyed by what differs for the caller.
@Suite("Views shared by callers who see the same faces", .serialized)
struct SharedViewTests {
    static let user: UInt32 = 4242

    @Test func oneUsersOwnDisableMakesNoViewForManyOtherUids() throws {
        let fixture = try UserFontsService(fonts: [Fixtures.fonts + "/color"])
        let path = fixture.ownDirectory(
            "v", uid: Self.user, fonts: ["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"])
        #expect(fixture.call("Register", ["paths": [.string(path)]], uid: Self.user).error == nil)
        #expect(fixture.call("Disable", ["target": "NotoFixture-Bold"], uid: Self.user).error == nil)
        let service = fixture.service!
        #expect(
            service.view(for: PeerCredentials(pid: 0, uid: Self.user, gid: Self.user)).disabled.map(\.postscriptName)
                == ["NotoFixture-Bold"])
        let common = service.view(for: PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max))
        #expect(common.index.face(postscriptName: "NotoFixture-Regular") == nil)
        let kept = service.keptViews
        for uid in UInt32(20_000)..<20_300 {
            for _ in 0..<2 {
                let reply = fixture.call("Resolve", ["family": "Fixture Color"], uid: uid)
                #expect(reply.error == nil)
            }
            #expect(service.view(for: PeerCredentials(pid: 0, uid: uid, gid: uid)).key == common.key)
        }
        #expect(service.keptViews.count == kept.count, "no view built for any of the 300 uids")
        #expect(service.keptViews.bytes == kept.bytes)
        // The owner still sees its own faces, the disabled one as disabled.
        let own = service.view(for: PeerCredentials(pid: 0, uid: Self.user, gid: Self.user))
        #expect(own.key != common.key)
        #expect(own.index.face(postscriptName: "NotoFixture-Regular") != nil)
        #expect(own.index.face(postscriptName: "NotoFixture-Bold") == nil)
    }

    @Test func theViewsKeptAreBoundedInBytes() throws {
        let fixture = try UserFontsService(fonts: [Fixtures.fonts + "/color"])
        for n in 0..<4 {
            let path = fixture.ownDirectory("w\(n)", uid: Self.user + UInt32(n), fonts: ["NotoFixture-Regular.ttf"])
            #expect(fixture.call("Register", ["paths": [.string(path)]], uid: Self.user + UInt32(n)).error == nil)
        }
        for n in 0..<4 {
            _ = fixture.service.view(for: PeerCredentials(pid: 0, uid: Self.user + UInt32(n), gid: Self.user))
        }
        let kept = fixture.service.keptViews
        #expect(kept.count >= 4 && kept.count <= RegistryService.maximumViews)
        #expect(kept.bytes > 0 && kept.bytes <= RegistryService.maximumViewBytes)
    }
}

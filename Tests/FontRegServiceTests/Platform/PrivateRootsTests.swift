import Testing

@testable import FontRegService

/// The private-roots table the views share (issue 24): kept current by the live registrations'
/// `add` and `remove` instead of being rebuilt from every record at each change.
@Suite struct PrivateRootsTests {
    static func record(_ path: String, _ owner: UInt32, isPrivate: Bool = true) -> RegistrationRecord {
        RegistrationRecord(path: path, owner: owner, scope: .persistent, isPrivate: isPrivate)
    }

    @Test func theTableFollowsAddAndRemoveAfterItWasFirstBuilt() {
        let platform = PlatformRegistry()
        platform.add([Self.record("/u/1/a", 1001), Self.record("/srv/shared", 0, isPrivate: false)])
        // Built at its first use, from the records then.
        #expect(platform.privateRoots.owner(of: "/u/1/a/x.ttf") == 1001)
        #expect(platform.privateRoots.owner(of: "/srv/shared/y.ttf") == nil)
        platform.add([Self.record("/u/2/b", 1002), Self.record("/u/2/c", 1002)])
        #expect(platform.privateRoots.owner(of: "/u/2/b/deep/z.otf") == 1002)
        #expect(platform.privateRoots.owners == [1001, 1002])
        #expect(platform.privateRoots.count == 3)
        platform.remove(paths: ["/u/2/b"])
        #expect(platform.privateRoots.owner(of: "/u/2/b/deep/z.otf") == nil)
        #expect(platform.privateRoots.owners == [1001, 1002])
        platform.remove(paths: ["/u/2/c", "/srv/shared"])
        #expect(platform.privateRoots.owners == [1001])
        #expect(platform.privateRoots.count == 1)
    }

    @Test func aPathIsHiddenWhenAnyEnclosingPrivateRootsOwnerIsNotShown() {
        let roots = PrivateRoots([("/u/1", 1001), ("/u/1/inner", 1002), ("/u/3/", 1003)])
        // The nearest root owns a face; a path is hidden if any root around it is someone else's.
        #expect(roots.owner(of: "/u/1/inner/f.ttf") == 1002)
        #expect(roots.hides("/u/1/inner/f.ttf", showing: [1002]))
        #expect(!roots.hides("/u/1/inner/f.ttf", showing: [1001, 1002]))
        #expect(!roots.hides("/u/1/g.ttf", showing: [1001]))
        #expect(roots.owner(of: "/u/3/h.ttf") == 1003)
        #expect(roots.hides("/u/3", showing: []))
        #expect(!roots.hides("/u/30/h.ttf", showing: []))
    }
}

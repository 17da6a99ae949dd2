import FontRegJSON
import FontRegTestSupport
import Testing
import Varlink

/// Issue 13 with two users as peers of the daemon's own connection logic, in memory: the
/// whole-reply replay cache never answers one user with a reply computed for another whose view
/// or Bold Text setting differs, and a new generation is seen at once by a caller who asked before it.
@Suite("Reply replay across users, in memory")
struct ReplayAcrossUsersTests {
    /// Four faces of one family that the registry does not serve by itself.
    static let noto = ["Regular", "Bold", "Italic", "BoldItalic"].map {
        BuildProducts.fixtureFonts + "/families/NotoFixture-\($0).ttf"
    }
    /// The registry's own fonts: public faces of two families.
    static let publicFonts = [BuildProducts.fixtureFonts + "/color", BuildProducts.fixtureFonts + "/collection"]

    static let a = InMemoryRegistry.user(61_001)
    static let b = InMemoryRegistry.user(61_002)

    static let resolve = VarlinkCall(
        method: "io.fontreg.Registry.Resolve", parameters: ["family": "Noto Fixture", "weight": "700", "strict": true])
    static let regular = VarlinkCall(
        method: "io.fontreg.Registry.Resolve", parameters: ["family": "Noto Fixture", "weight": "400"])

    /// Sends `calls` on a new connection as `peer` and returns the replies as the bytes written.
    static func replies(_ registry: InMemoryRegistry, _ peer: PeerCredentials, _ calls: [VarlinkCall]) throws
        -> [String]
    {
        let connection = registry.connect(as: peer)
        defer { connection.close() }
        connection.sendRaw(calls.flatMap { $0.serialized() })
        return try calls.map { _ in String(decoding: try connection.receiveMessage(), as: UTF8.self) }
    }

    @Test func aUsersPrivateFacesAreNeverReplayedToAnotherUser() throws {
        let registry = try InMemoryRegistry(fonts: Self.publicFonts)
        let (a, b) = (Self.a, Self.b)
        let directory = try registry.userFontDirectory("a", owner: a.uid, copying: Self.noto)

        // Before: both users are told the family does not exist (the same bytes, twice each).
        let before = try Self.replies(registry, a, [Self.resolve, Self.resolve])
        #expect(before.count == 2 && before[0] == before[1] && before[0].contains("FamilyNotFound"), "\(before)")
        #expect(try Self.replies(registry, b, [Self.resolve]) == [before[0]])

        // A registers the family privately: a new generation, and a view of its own.
        try registry.call("Register", ["paths": [.string(directory)]], as: a)
        let own = try Self.replies(registry, a, [Self.resolve, Self.resolve])
        #expect(own.count == 2 && own[0] == own[1], "\(own)")
        #expect(own[0].contains(directory + "/NotoFixture-Bold.ttf"), "\(own)")
        // B sends the very same bytes right after (A's reply is in the cache): still not found.
        for _ in 0..<2 {
            let other = try Self.replies(registry, b, [Self.resolve])
            #expect(other.first?.contains("FamilyNotFound") == true, "\(other)")
            #expect(other.first?.contains(directory) == false, "\(other)")
        }
        // And A still gets its own faces after B asked.
        #expect(try Self.replies(registry, a, [Self.resolve]) == [own[0]])
    }

    @Test func aUsersBoldTextSettingIsNotReplayedToAnotherUser() throws {
        let registry = try InMemoryRegistry(fonts: Self.publicFonts + [BuildProducts.fixtureFonts + "/families"])
        let (a, b) = (Self.a, Self.b)
        let plain = try Self.replies(registry, b, [Self.regular, Self.regular])
        #expect(plain.count == 2 && plain[0] == plain[1] && plain[0].contains("parameters"), "\(plain)")
        let set = try registry.call("SetBoldText", ["boldText": true], as: a)
        #expect(set["boldText"] == true, "\(set)")
        let emboldened = try Self.replies(registry, a, [Self.regular])
        #expect(emboldened.first != plain[0], "A's Bold Text setting changes the answer: \(emboldened)")
        #expect(try Self.replies(registry, b, [Self.regular]) == [plain[0]])
    }
}

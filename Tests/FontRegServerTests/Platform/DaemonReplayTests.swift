import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON

/// Issue 13 against the real daemon with two real users: the whole-reply replay cache never
/// answers one user with a reply computed for another whose view or Bold Text setting differs,
/// and a new generation is seen at once by a caller who asked before it.
@Suite("Reply replay across users", .serialized)
struct DaemonReplayTests {
    static let resolve = DaemonUserFontsTests.message(
        "Resolve", ["family": "Noto Fixture", "weight": "700", "strict": true])

    static let regular = DaemonUserFontsTests.message("Resolve", ["family": "Noto Fixture", "weight": "400"])

    @Test func aUsersPrivateFacesAreNeverReplayedToAnotherUser() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let daemon = try DaemonProcess(fonts: DaemonUserFontsTests.publicFonts)
        let directory = try a.makeFontDirectory(copying: DaemonUserFontsTests.noto)
        defer { a.removeFontDirectory(directory) }
        let socket = daemon.socketPath

        // Before: both users are told the family does not exist (the same bytes, twice each).
        let before = try a.varlink([Self.resolve, Self.resolve], socket: socket)
        #expect(before.count == 2 && before[0] == before[1] && before[0].contains("FamilyNotFound"), "\(before)")
        #expect(try b.varlink([Self.resolve], socket: socket) == [before[0]])

        // A registers the family privately: a new generation, and a view of its own.
        let registered = try a.fontresolve(["register", directory], socket: socket)
        try #require(registered.status == 0, "\(registered.stderr)")
        let own = try a.varlink([Self.resolve, Self.resolve], socket: socket)
        #expect(own.count == 2 && own[0] == own[1], "\(own)")
        #expect(own[0].contains(directory + "/NotoFixture-Bold.ttf"), "\(own)")
        // B sends the very same bytes right after (A's reply is in the cache): still not found.
        for _ in 0..<2 {
            let other = try b.varlink([Self.resolve], socket: socket)
            #expect(other.first?.contains("FamilyNotFound") == true, "\(other)")
            #expect(other.first?.contains(directory) == false, "\(other)")
        }
        // And A still gets its own faces after B asked.
        #expect(try a.varlink([Self.resolve], socket: socket) == [own[0]])
    }

    @Test func aUsersBoldTextSettingIsNotReplayedToAnotherUser() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let daemon = try DaemonProcess(
            fonts: DaemonUserFontsTests.publicFonts + [BuildProducts.fixtureFonts + "/families"])
        let socket = daemon.socketPath
        let plain = try b.varlink([Self.regular, Self.regular], socket: socket)
        #expect(plain.count == 2 && plain[0] == plain[1] && plain[0].contains("parameters"), "\(plain)")
        let set = try a.varlink(
            [DaemonUserFontsTests.message("SetBoldText", ["boldText": true])], socket: socket)
        #expect(set.first?.contains(#""boldText":true"#) == true, "\(set)")
        let emboldened = try a.varlink([Self.regular], socket: socket)
        #expect(emboldened.first != plain[0], "A's Bold Text setting changes the answer: \(emboldened)")
        #expect(try b.varlink([Self.regular], socket: socket) == [plain[0]])
    }
}

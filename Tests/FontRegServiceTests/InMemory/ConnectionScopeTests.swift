import FontRegJSON
import FontRegTestSupport
import Testing
import Varlink

/// Issue 15's connection scope in memory: a registration made with `scope: connection` lives as
/// long as the connection that made it (`DaemonUserFontsTests` kills a real client for the same).
@Suite("Connection-scoped registrations, in memory")
struct ConnectionScopeTests {
    static let noto = ["Regular", "Bold"].map { BuildProducts.fixtureFonts + "/families/NotoFixture-\($0).ttf" }
    static let user = InMemoryRegistry.user(61_003)
    static let query: [String: JSONValue] = ["family": "Noto Fixture", "strict": true]

    @Test func aConnectionScopedRegistrationGoesWhenItsConnectionCloses() throws {
        let registry = try InMemoryRegistry(fonts: [BuildProducts.fixtureFonts + "/color"])
        let directory = try registry.userFontDirectory("own", owner: Self.user.uid, copying: Self.noto)
        let holder = registry.connect(as: Self.user)
        try holder.call("io.fontreg.Registry.Register", ["paths": [.string(directory)], "scope": "connection"])
        // Another connection of the same user sees the faces while the holder is open.
        #expect(try registry.call("Resolve", Self.query, as: Self.user)["postscriptName"] == "NotoFixture-Regular")
        let status = try registry.call("GetStatus", as: Self.user)
        #expect(status["registrations"]?.arrayValue?.contains { $0["scope"] == "connection" } == true)

        holder.close()
        try waitFor("the closed connection's registration to be dropped") {
            remoteError { try registry.call("Resolve", Self.query, as: Self.user) }?.name
                == "io.fontreg.Registry.FamilyNotFound"
        }
        let left = try registry.call("GetStatus", as: Self.user)["registrations"]?.arrayValue
        #expect(left?.contains { $0["scope"] == "connection" } == false)
    }

    @Test func aSessionRegistrationOutlivesItsConnection() throws {
        let registry = try InMemoryRegistry(fonts: [BuildProducts.fixtureFonts + "/color"])
        let directory = try registry.userFontDirectory("own", owner: Self.user.uid, copying: Self.noto)
        let holder = registry.connect(as: Self.user)
        try holder.call("io.fontreg.Registry.Register", ["paths": [.string(directory)]])
        holder.close()
        #expect(try registry.call("Resolve", Self.query, as: Self.user)["postscriptName"] == "NotoFixture-Regular")
    }
}

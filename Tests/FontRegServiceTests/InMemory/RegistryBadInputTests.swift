import FontRegJSON
import FontRegService
import FontRegTestSupport
import Testing
import Varlink

/// Broken and hostile calls get a clear error from the daemon's connection logic and service,
/// driven in memory with bytes (``InMemoryRegistry``); what needs the event loop (idle timeouts,
/// slow readers, connection limits) stays with the real daemon in `DaemonLimitsTests`.
@Suite("Broken and hostile calls, in memory")
struct RegistryBadInputTests {
    static let status = "io.fontreg.Registry.GetStatus"
    static let resolve = "io.fontreg.Registry.Resolve"

    @Test func malformedJSONGetsInvalidMessageThenTheConnectionIsClosed() throws {
        let registry = try InMemoryRegistry()
        let bystander = registry.connect()
        let client = registry.connect()
        client.sendRaw(Array("{\"method\": \"io.fontreg.Registry.GetStatus\", ".utf8) + [0])
        #expect(try client.receiveAll().map(\.error) == ["io.fontreg.Registry.InvalidMessage"])
        #expect(client.shouldClose)
        #expect(try bystander.call(Self.status)["faces"] != nil)
    }

    @Test func unknownTopLevelKeyIsAProtocolErrorThatClosesTheConnection() throws {
        let client = try InMemoryRegistry().connect()
        client.sendRaw(Array(#"{"method":"io.fontreg.Registry.GetStatus","id":7}"#.utf8) + [0])
        let replies = try client.receiveAll()
        #expect(replies.first?.error == "io.fontreg.Registry.InvalidMessage")
        #expect(replies.first?.parameters["reason"]?.stringValue?.contains("'id'") == true)
        #expect(client.shouldClose)
    }

    @Test func oversizedMessageGetsMessageTooLargeAndTheRestIsNotBuffered() throws {
        let registry = try InMemoryRegistry(maximumMessageSize: 4096)
        let client = registry.connect()
        // 1 MiB without a NUL: the connection gives up after 4 KiB plus one read, not buffering it all.
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 65536)
        for _ in 0..<16 { client.sendRaw(chunk) }
        let replies = try client.receiveAll()
        #expect(replies.map(\.error) == ["io.fontreg.Registry.MessageTooLarge"])
        #expect(replies.first?.parameters["limit"] == 4096)
        #expect(client.shouldClose)
        #expect(try registry.connect().call(Self.status)["faces"] != nil)
    }

    @Test func resolveWithAnInfiniteOrHugeWeightGetsInvalidWeightAndTheDaemonKeepsServing() throws {
        let client = try InMemoryRegistry().connect()
        for weight: JSONValue in ["inf", "-Infinity", "1e300", .double(1e23)] {
            let error = remoteError { _ = try client.call(Self.resolve, ["family": "Fixture Sans", "weight": weight]) }
            #expect(error?.name == "io.fontreg.Registry.InvalidWeight", "\(weight)")
        }
        let reply = try client.call(Self.resolve, ["family": "Fixture Sans", "weight": "700"])
        #expect(reply["postscriptName"] == "FixtureSans-Bold")
    }

    @Test func resolveManyOverTheBatchLimitIsRefusedWithInvalidParameterAndTheLimitItselfIsServed() throws {
        let client = try InMemoryRegistry().connect()
        let query: JSONValue = ["family": "Fixture Sans", "weight": "600"]
        let tooMany = remoteError {
            _ = try client.call(
                "io.fontreg.Registry.ResolveMany",
                ["queries": .array(Array(repeating: query, count: RegistryService.maximumBatch + 1))])
        }
        #expect(tooMany?.name == "org.varlink.service.InvalidParameter")
        #expect(tooMany?.parameters["parameter"] == "queries")
        let full = try client.call(
            "io.fontreg.Registry.ResolveMany",
            ["queries": .array(Array(repeating: query, count: RegistryService.maximumBatch))])
        #expect(full["results"]?.arrayValue?.count == RegistryService.maximumBatch)
    }
}

import FontRegTestSupport
import Testing

@testable import FontRegJSON
@testable import Varlink

/// The real `fontregd` on a real Unix socket: calls pipelined through the event loop's reads.
///
/// The rest of Varlink as clients see it (answers, errors, `oneway`, `more`) is tested in memory:
/// `RegistryProtocolTests` in FontRegServiceTests.
@Suite("fontregd speaks Varlink", .serialized)
struct DaemonProtocolTests {
    static let registry = "io.fontreg.Registry"

    @Test func pipelinedCallsAreAnsweredInCallOrder() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        let weights = [100, 900, 400, 700, 300, 600, 200, 800, 500]
        var bytes: [UInt8] = []
        for weight in weights {
            bytes += VarlinkCall(
                method: "\(Self.registry).Resolve",
                parameters: ["family": "Fixture Sans", "weight": .string(String(weight))]
            ).serialized()
        }
        try client.sendRaw(bytes)
        for weight in weights {
            let reply = try client.receive()
            #expect(reply.error == nil)
            #expect(reply.parameters["weight"]?.intValue == weight)
        }
    }

}

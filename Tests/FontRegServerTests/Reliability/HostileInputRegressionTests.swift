import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol
@testable import FontRegServer
@testable import FontRegService
@testable import FontRegSystem
@testable import Varlink

/// Inputs the fuzzers found to crash the daemon, kept so that they never do again.
///
/// Each test names the input and what must happen instead of the crash; the daemon tests
/// run the real `fontregd` on a temporary socket.
@Suite("inputs that once crashed fontregd", .serialized)
struct HostileInputRegressionTests {
    static let resolve = "io.fontreg.Registry.Resolve"

    /// Found by Tests/reliability/protocol_fuzz.py: `Int(Double)` trapped on these.
    @Test(arguments: ["inf", "-inf", "Infinity", "1e300", "1e+23", "-1e19", "9223372036854775808.0", "nan"])
    func weightTextsBeyondIntAreRejectedNotTrappedOn(text: String) {
        #expect(FontWeight(parsing: text) == nil)
    }

    @Test func resolveWithAnInfiniteOrHugeWeightGetsInvalidWeightAndTheDaemonKeepsServing() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        for weight: JSONValue in ["inf", "-Infinity", "1e300", .double(1e23)] {
            let error = remoteError { _ = try client.call(Self.resolve, ["family": "Fixture Sans", "weight": weight]) }
            #expect(error?.name == "io.fontreg.Registry.InvalidWeight", "\(weight)")
        }
        let reply = try client.call(Self.resolve, ["family": "Fixture Sans", "weight": "700"])
        #expect(reply["postscriptName"] == "FixtureSans-Bold")
    }
}

/// Memory amplification the protocol fuzzer found: a small call must not make a huge reply.
@Suite("fontregd bounds what one call can cost", .serialized)
struct CallCostBoundTests {
    @Test func resolveManyOverTheBatchLimitIsRefusedWithInvalidParameterAndTheLimitItselfIsServed() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client(timeout: 60)
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

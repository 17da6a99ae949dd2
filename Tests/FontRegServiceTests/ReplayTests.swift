import FontRegTestSupport
import Synchronization
import Testing

@testable import FontRegService
@testable import FontRegSystem
@testable import Varlink

/// Issue 13: repeated `Resolve` and `Candidates` calls answered from the whole-reply cache,
/// through ``VarlinkConnection`` driven with bytes in memory over the fixture fonts.
@Suite("Reply replay on a connection")
struct ReplayTests {
    static func service() -> RegistryService {
        RegistryService(
            registry: Fixtures.registry, store: RegistrationStore(directory: "/proc/fontreg-no-state"), persisted: [],
            settings: .init(access: AccessPolicy(allowedUIDs: [0]), allowedRoots: AllowedRoots([])),
            logger: Logger(minimumLevel: .error))
    }

    static let errors = VarlinkLimitErrors(messageTooLarge: "a.A", invalidMessage: "a.B", tooManyConnections: "a.C")

    static func connection(_ service: RegistryService, uid: UInt32 = 1000) -> VarlinkConnection {
        VarlinkConnection(
            peer: PeerCredentials(pid: 7, uid: uid, gid: uid), service: service, maximumMessageSize: 1 << 20,
            errors: errors)
    }

    /// Sends `message` (NUL added) and returns the reply bytes.
    static func call(_ connection: inout VarlinkConnection, _ message: String) -> [UInt8] {
        connection.receive(Array(message.utf8) + [0])
        _ = connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        return connection.takeOutput()
    }

    static let requests = [
        #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Noto Fixture","weight":"600"}}"#,
        #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Noto Fixture","italic":true}}"#,
        #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"No Such Family"}}"#,
        #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Noto Fixture","weight":"heavy-ish"}}"#,
        #"{"method":"io.fontreg.Registry.Candidates","parameters":{"family":"Noto Fixture","weight":"700"}}"#,
    ]

    @Test(arguments: requests)
    func aReplayedReplyIsByteIdenticalToAFreshlyComputedOne(request: String) {
        let service = Self.service()
        var first = Self.connection(service)
        let computed = Self.call(&first, request)
        #expect(first.replayed == 0)
        var second = Self.connection(service, uid: 1001)
        let replayed = Self.call(&second, request)
        #expect(second.replayed == 1, "the second caller, whose view is the same, is answered from the cache")
        #expect(replayed == computed)
        // And both are what a service that never replayed computes.
        var fresh = Self.connection(Self.service())
        #expect(Self.call(&fresh, request) == computed)
        #expect(computed.last == 0 && computed.count > 20)
    }

    @Test func onewayAndMoreCallsAreNeverAnsweredFromTheCache() {
        let service = Self.service()
        var connection = Self.connection(service)
        let plain = #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Noto Fixture"}}"#
        _ = Self.call(&connection, plain)
        let oneway = #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Noto Fixture"},"oneway":true}"#
        #expect(Self.call(&connection, oneway).isEmpty)
        #expect(Self.call(&connection, oneway).isEmpty)
        let more = #"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":"Noto Fixture"},"more":true}"#
        _ = Self.call(&connection, more)
        _ = Self.call(&connection, more)
        #expect(connection.replayed == 0)
        _ = Self.call(&connection, plain)
        #expect(connection.replayed == 1)
    }

    @Test func aDaemonWideBoldTextPolicyChangeInvalidatesReplays() {
        let service = Self.service()
        let request = Self.requests[0]
        var connection = Self.connection(service)
        _ = Self.call(&connection, request)
        var settings = service.settings.withLock { $0 }
        settings.platform.boldText = true
        service.update(settings)
        _ = Self.call(&connection, request)
        #expect(connection.replayed == 0, "new settings: the scope is computed again and the cache emptied")
    }

    @Test func invalidatingTheCacheMakesTheNextCallComputeAgain() {
        let service = Self.service()
        let request = Self.requests[0]
        var connection = Self.connection(service)
        let first = Self.call(&connection, request)
        service.invalidateCaches()  // as a rule reload or a new generation does
        #expect(service.replayReplies.count == 0)
        #expect(Self.call(&connection, request) == first)
        #expect(connection.replayed == 0)
        #expect(Self.call(&connection, request) == first)
        #expect(connection.replayed == 1)
    }
}

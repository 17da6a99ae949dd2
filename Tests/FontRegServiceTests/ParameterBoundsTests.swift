import FontRegTestSupport
import Testing

@testable import FontRegJSON
@testable import FontRegProtocol
@testable import FontRegService
@testable import FontRegSystem
@testable import Varlink

/// Every string a call carries is bounded, and a batch too long for the loop leaves it.
@Suite("Registry parameter bounds")
struct ParameterBoundsTests {
    static let service = RegistryService(
        registry: Fixtures.registry, store: RegistrationStore(directory: "/proc/fontreg-no-state"), persisted: [],
        settings: .init(access: AccessPolicy(allowedUIDs: [0]), allowedRoots: AllowedRoots([])),
        logger: Logger(minimumLevel: .error))
    static let root = PeerCredentials(pid: 1, uid: 0, gid: 0)

    func outcome(_ method: String, _ parameters: [String: JSONValue]) -> CallOutcome {
        Self.service.handle(
            VarlinkCall(method: "io.fontreg.Registry." + method, parameters: parameters), peer: Self.root)
    }

    func failure(_ outcome: CallOutcome) -> VarlinkError? {
        switch outcome {
        case .failure(let error): return error
        case .replayable(let inner, _): return failure(inner)  // Resolve, Candidates (issue 13)
        default: return nil
        }
    }

    @Test(arguments: [("Resolve", "family"), ("ListFaces", "family"), ("GetFace", "postscriptName")])
    func aNameOneByteOverTheLimitIsRefusedNamingTheLimit(method: String, parameter: String) throws {
        let limit = RegistryService.maximumNameBytes
        let error = try #require(
            failure(outcome(method, [parameter: .string(String(repeating: "a", count: limit + 1))])))
        #expect(error.name == "org.varlink.service.InvalidParameter")
        #expect(error.parameters["parameter"] == .string(parameter))
        #expect(error.parameters["maximumBytes"] == .int(limit))
        // At the limit the name is read (and simply not found).
        let atLimit = failure(outcome(method, [parameter: .string(String(repeating: "a", count: limit))]))
        #expect(atLimit?.parameters["maximumBytes"] == nil)
    }

    @Test func theRefusalIsExplainedWithItsLimit() {
        #expect(
            VarlinkError.parameterTooLong("family", maximumBytes: 256).explanation
                == "The parameter \"family\" is longer than fontregd accepts (256 bytes).")
        #expect(VarlinkError.tooManyElements("paths", maximumCount: 256).explanation.contains("more elements"))
    }

    @Test func theLimitCountsUTF8BytesNotCharacters() throws {
        let name = String(repeating: "é", count: RegistryService.maximumNameBytes / 2 + 1)
        let error = try #require(failure(outcome("Resolve", ["family": .string(name), "strict": true])))
        #expect(error.parameters["maximumBytes"] == .int(RegistryService.maximumNameBytes))
    }

    @Test func pathsAndWeightsAndPoliciesAreBoundedToo() throws {
        let path = "/" + String(repeating: "p", count: RegistryService.maximumPathBytes)
        let tooLong = try #require(failure(outcome("Register", ["paths": [.string(path)]])))
        #expect(tooLong.parameters["maximumBytes"] == .int(RegistryService.maximumPathBytes))
        let many = JSONValue.array(Array(repeating: "/tmp/x", count: RegistryService.maximumPathsPerCall + 1))
        let tooMany = try #require(failure(outcome("Unregister", ["paths": many])))
        #expect(tooMany.parameters["maximumCount"] == .int(RegistryService.maximumPathsPerCall))
        let weight = try #require(
            failure(outcome("Resolve", ["family": "Lato", "weight": .string(String(repeating: "9", count: 100))])))
        #expect(weight.parameters["maximumBytes"] == .int(ParameterReader.maximumWeightBytes))
        let policy = try #require(
            failure(outcome("Resolve", ["family": "Lato", "boldPolicy": .string(String(repeating: "x", count: 65))])))
        #expect(policy.parameters["maximumBytes"] == .int(RegistryService.maximumKeywordBytes))
    }

    @Test func smallBatchesAreAnsweredOnTheLoopAndLargeOnesAreOffloaded() throws {
        let query: JSONValue = ["family": "Noto Fixture", "weight": "bold"]
        let small = outcome("ResolveMany", ["queries": .array(Array(repeating: query, count: 2))])
        guard case .encodedReply(let bytes) = small else {
            Issue.record("a batch of 2 should be answered at once, got \(small)")
            return
        }
        let large = outcome(
            "ResolveMany", ["queries": .array(Array(repeating: query, count: RegistryService.largestBatchOnLoop + 1))])
        guard case .offloaded(let work) = large else {
            Issue.record("a batch over \(RegistryService.largestBatchOnLoop) should be offloaded, got \(large)")
            return
        }
        let offloaded = try work().get()
        let results = try #require(JSONParser.parse(offloaded)["results"]?.arrayValue)
        #expect(results.count == RegistryService.largestBatchOnLoop + 1)
        #expect(try JSONParser.parse(bytes)["results"]?.arrayValue?.first == results.first)
        let tooMany = outcome(
            "ResolveMany", ["queries": .array(Array(repeating: query, count: RegistryService.maximumBatch + 1))])
        #expect(failure(tooMany)?.parameters["maximumCount"] == .int(RegistryService.maximumBatch))
    }
}

import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegTestSupport
import Foundation
import Testing
import Varlink

/// `io.fontreg.Registry` as clients see it, driven in memory through ``VarlinkConnection``: the
/// daemon's framing, dispatch and replies with no socket and no process (``InMemoryRegistry``).
@Suite("io.fontreg.Registry over Varlink, in memory")
struct RegistryProtocolTests {
    static let registry = "io.fontreg.Registry"

    @Test func getInfoListsBothInterfacesAndDescriptionIsTheRepositoryFile() throws {
        let client = try InMemoryRegistry().connect()
        let info = try client.call("org.varlink.service.GetInfo")
        #expect(info["product"] == "fontregd")
        #expect(info["interfaces"] == ["org.varlink.service", "io.fontreg.Registry"])
        let description = try client.call(
            "org.varlink.service.GetInterfaceDescription", ["interface": "io.fontreg.Registry"])
        let file = try String(
            contentsOfFile: BuildProducts.packageRoot.appendingPathComponent(
                "Sources/FontRegService/io.fontreg.Registry.varlink"
            ).path,
            encoding: .utf8)
        #expect(description["description"]?.stringValue == file)
    }

    @Test func resolveReplyHasTheFieldsOfFontresolveJSON() throws {
        let reply = try InMemoryRegistry().call(
            "Resolve", ["family": "Fixture Sans", "weight": "semibold", "italic": true])
        #expect(reply["postscriptName"] == "FixtureSans-SemiBoldItalic")
        #expect(reply["weight"] == 600)
        #expect(reply["italic"] == true)
        for key in [
            "file", "index", "match", "requestedWeight", "effectiveWeight", "trace", "warnings", "family",
            "resolvedFamily", "face",
        ] {
            #expect(reply[key] != nil, "Resolve reply lacks \(key)")
        }
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [BuildProducts.fixtureFonts]))
        let local = ResolutionReply(
            try registry.resolve(ResolveQuery(family: "Fixture Sans", weight: .semibold, italic: true)))
        #expect(JSONValue.object(reply) == local.jsonValue)
    }

    @Test func onewayCallGetsNoReplyAndTheNextCallIsAnswered() throws {
        let client = try InMemoryRegistry().connect()
        client.send(
            VarlinkCall(
                method: "\(Self.registry).Resolve", parameters: ["family": "Nope", "strict": true], oneway: true))
        #expect(!client.hasUnreadReply)
        let status = try client.call("\(Self.registry).GetStatus")
        #expect(status["faces"]?.intValue ?? 0 > 100)
    }

    @Test func errorsAreFullyQualifiedWithActionableParameters() throws {
        let client = try InMemoryRegistry().connect()
        let notFound = remoteError {
            _ = try client.call("\(Self.registry).Resolve", ["family": "Fixture Sanz", "strict": true])
        }
        #expect(notFound?.name == "io.fontreg.Registry.FamilyNotFound")
        #expect(notFound?.parameters["suggestions"]?.arrayValue?.contains("Fixture Sans") == true)
        let face = remoteError { _ = try client.call("\(Self.registry).GetFace", ["postscriptName": "Nope-Regular"]) }
        #expect(face?.name == "io.fontreg.Registry.FaceNotFound")
        let weight = remoteError {
            _ = try client.call("\(Self.registry).Resolve", ["family": "Fixture Sans", "weight": "chunky"])
        }
        #expect(weight?.name == "io.fontreg.Registry.InvalidWeight")
        let policy = remoteError {
            _ = try client.call(
                "\(Self.registry).Resolve", ["family": "Fixture Sans", "boldText": true, "boldPolicy": "max"])
        }
        #expect(policy?.name == "io.fontreg.Registry.InvalidBoldPolicy")
        let parameter = remoteError {
            _ = try client.call("\(Self.registry).Resolve", ["family": "Fixture Sans", "colour": "red"])
        }
        #expect(parameter == .invalidParameter("colour"))
        let method = remoteError { _ = try client.call("\(Self.registry).Frobnicate") }
        #expect(method == .methodNotFound("io.fontreg.Registry.Frobnicate"))
        let interface = remoteError { _ = try client.call("com.example.Nothing.Call") }
        #expect(interface == .interfaceNotFound("com.example.Nothing"))
        let more = remoteError { _ = try client.call("\(Self.registry).Monitor") }
        #expect(more == .expectedMore)
        // The connection is still usable after every one of those errors.
        #expect(try client.call("\(Self.registry).ListFamilies")["families"]?.arrayValue?.isEmpty == false)
        #expect(!client.shouldClose)
    }

    @Test func resolveManyAnswersEachQueryWithAResolutionOrItsError() throws {
        let reply = try InMemoryRegistry().call(
            "ResolveMany",
            [
                "queries": [
                    ["family": "Fixture Sans", "weight": "700"], ["family": "Nope", "strict": true],
                    ["family": "Fixture Sans", "weight": "x"],
                ]
            ])
        let results = reply["results"]?.arrayValue ?? []
        #expect(results.count == 3)
        #expect(results.first?["resolution"]?["postscriptName"] == "FixtureSans-Bold")
        #expect(results.dropFirst().first?["error"]?["error"] == "io.fontreg.Registry.FamilyNotFound")
        #expect(results.last?["error"]?["error"] == "io.fontreg.Registry.InvalidWeight")
    }

    @Test func resolveManyNamesAMistypedKnownParameterWithItsPlaceInTheBatch() throws {
        let reply = try InMemoryRegistry().call(
            "ResolveMany",
            ["queries": [["family": "Fixture Sans"], ["family": 5], ["family": "Fixture Sans", "italic": "yes"]]])
        let results = reply["results"]?.arrayValue ?? []
        #expect(results.count == 3)
        #expect(results.dropFirst().first?["error"]?["parameters"]?["parameter"] == "queries[1].family")
        #expect(results.last?["error"]?["parameters"]?["parameter"] == "queries[2].italic")
    }

    @Test func listFacesOfAFamilyAndGetFaceByPostScriptName() throws {
        let client = try InMemoryRegistry().connect()
        let faces = try client.call("\(Self.registry).ListFaces", ["family": "fixture-sans"])["faces"]?.arrayValue ?? []
        #expect(faces.count == 18)
        let all = try client.call("\(Self.registry).ListFaces")["faces"]?.arrayValue ?? []
        #expect(all.count > faces.count)
        let face = try client.call("\(Self.registry).GetFace", ["postscriptName": "fixturesans-bold"])["face"]
        #expect(face?["weight"] == 700)
    }

    @Test func monitorStreamReportsARegistrationMadeOnAnotherConnection() throws {
        let registry = try InMemoryRegistry(allowedRoots: [BuildProducts.realFonts])
        let monitor = registry.connect()
        monitor.send(VarlinkCall(method: "\(Self.registry).Monitor", more: true))
        let first = try monitor.receive()
        #expect(first.continues)
        #expect(first.parameters["event"] == "subscribed")
        let registered = try registry.call("Register", ["paths": [.string(BuildProducts.realFonts + "/Lato")]])
        #expect(registered["added"]?.arrayValue?.count == 18)
        let event = try monitor.receive()
        #expect(event.continues)
        #expect(event.parameters["event"] == "changed")
        #expect(event.parameters["added"]?.arrayValue?.count == 18)
        #expect(event.parameters["generation"] == registered["generation"])
    }

    @Test func repeatedResolvesAndListingsAreAnsweredAfreshOnceTheIndexChanges() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed + "/regular", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: allowed + "/bold", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: BuildProducts.realFonts + "/Lato/Lato-Regular.ttf", toPath: allowed + "/regular/Lato-Regular.ttf")
        try FileManager.default.copyItem(
            atPath: BuildProducts.realFonts + "/Lato/Lato-Bold.ttf", toPath: allowed + "/bold/Lato-Bold.ttf")
        let client = try InMemoryRegistry(allowedRoots: [allowed]).connect()
        _ = try client.call("\(Self.registry).Register", ["paths": [.string(allowed + "/regular")]])
        let query: [String: JSONValue] = ["family": "Lato", "weight": "700", "strict": true]
        #expect(try client.call("\(Self.registry).Resolve", query)["postscriptName"] == "Lato-Regular")
        let listFaces = {
            try client.call("\(Self.registry).ListFaces", ["family": "Lato"])["faces"]?.arrayValue?.count
        }
        #expect(try listFaces() == 1)
        #expect(try listFaces() == 1)
        _ = try client.call("\(Self.registry).Register", ["paths": [.string(allowed + "/bold")]])
        #expect(try client.call("\(Self.registry).Resolve", query)["postscriptName"] == "Lato-Bold")
        #expect(try listFaces() == 2)
    }
}

import FontRegTestSupport
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol
@testable import FontRegService
@testable import Varlink

/// Variations, synthesis, the richer query, `Candidates` and duplicates over the real daemon,
/// compared with the library in process.
@Suite("Rendering answers over Varlink", .serialized)
struct RenderingAnswersClientTests {
    static let fonts =
        ["stretch", "slant", "lone", "axis", "var-static"].map { Fixtures.matching + "/" + $0 } + [
            Fixtures.fonts + "/variable"
        ]

    @Test func theDaemonAnswersWithVariationsSynthesisAndTheRicherQuery() throws {
        let daemon = try DaemonProcess(fonts: Self.fonts)
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: Self.fonts))
        let queries = [
            ResolveQuery(family: "Axis Fixture", weight: FontWeight(650)!, opticalSize: 24),
            ResolveQuery(family: "Axis Fixture", width: 90, synthesis: .none),
            ResolveQuery(family: "Slant Fixture", style: .oblique(angle: 10)),
            ResolveQuery(family: "Lone Fixture", weight: .bold, italic: true),
            ResolveQuery(family: "Stretch Fixture", width: 125),
        ]
        for query in queries {
            let remote = try client.resolve(query)
            #expect(remote == ResolutionReply(try registry.resolve(query)), "\(query)")
        }
        let axis = try client.resolve(queries[0])
        #expect(axis.variations == ["wght": 650, "opsz": 24] && axis.weight == 650)
        #expect(axis.jsonValue["variations"] == ["opsz": 24, "wght": 650])
        let lone = try client.resolve(queries[3])
        #expect(lone.synthesis == Synthesis(bold: true, oblique: true))
        #expect(lone.jsonValue["synthesis"] == ["bold": true, "oblique": true, "obliqueAngle": 14])
        #expect(try client.resolve(queries[2]).postscriptName == "SlantFixture-Oblique8")
        let batch = try client.resolveMany(queries)
        #expect(
            try batch.map { try $0.get().postscriptName }
                == queries.map { try registry.resolve($0).face.postscriptName })
    }

    @Test func candidatesAndDuplicatesComeFromTheDaemonAsFromTheLibrary() throws {
        let daemon = try DaemonProcess(fonts: Self.fonts)
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: Self.fonts))
        let query = ResolveQuery(family: "Axis Fixture", weight: FontWeight(650)!, width: 80)
        let remote = try client.candidates(query)
        #expect(remote == (try registry.candidates(query)))
        #expect(remote.candidates.first?.variations.map(\.description) == ["wght=650", "wdth=80"])
        let status = try client.status()
        #expect(status.duplicates == DuplicateSummary.of(registry.index))
        let group = try #require(status.duplicates.first { $0.kind == "postscript-name" })
        #expect(group.key == "FixtureVar-Bold" && group.winner.file.hasSuffix("/var-static/FixtureVar-Bold.ttf"))
        #expect(group.losers.map(\.reason) == ["variable-instance"])
        #expect(throws: VarlinkClientError.self) { try client.candidates(ResolveQuery(family: "Nope")) }
    }

    @Test func listFacesCarriesTheNewFaceFieldsAndTheFamilysDuplicates() throws {
        let daemon = try DaemonProcess(fonts: Self.fonts)
        let connection = try VarlinkClient(socketPath: daemon.socketPath)
        let reply = try connection.call(RegistryInterface.qualified("ListFaces"), ["family": "Fixture Var"])
        #expect(reply["duplicates"]?.arrayValue?.count == 2)
        let faces = try #require(reply["faces"]?.arrayValue)
        #expect(
            !faces.contains {
                $0["file"]?.stringValue?.hasSuffix("[wght].ttf") == true && $0["postscriptName"] == "FixtureVar-Bold"
            })
        let slant = try connection.call(
            RegistryInterface.qualified("GetFace"), ["postscriptName": "SlantFixture-Oblique20"])
        #expect(slant["face"]?["italicAngle"] == .int(-20) || slant["face"]?["italicAngle"] == .double(-20))
        #expect(slant["face"]?["fontRevision"]?.doubleValue == 1)
    }

    @Test(arguments: [
        ["style": JSONValue.string("slanted")], ["width": "narrow"], ["opticalSize": "big"], ["synthesis": "bold"],
    ])
    func aBadStyleWidthSizeOrSynthesisIsInvalidParameter(_ bad: [String: JSONValue]) throws {
        let reader = try ParameterReader(
            VarlinkCall(method: "", parameters: ["family": "Lone Fixture"].merging(bad) { $1 }),
            allowed: RegistryService.queryParameters)
        #expect(throws: VarlinkError.invalidParameter(bad.keys.first!)) { try RegistryService.query(from: reader) }
    }
}

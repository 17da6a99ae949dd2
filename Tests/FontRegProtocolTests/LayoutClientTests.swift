import FontRegTestSupport
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol

/// `Layout` and the faces' `metrics` over the real daemon (issue 27), compared with the library
/// in process, on Debian's Lato (scripts/setup-deps.sh --test).
@Suite("Layout over Varlink", .serialized)
struct LayoutClientTests {
    static let fonts = ["/usr/share/fonts/truetype/lato"]

    @Test func theDaemonAnswersLayoutAsTheLibraryDoes() throws {
        let daemon = try DaemonProcess(fonts: Self.fonts)
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let reply = try client.call(
            "Layout", ["family": "Lato", "weight": "bold", "size": 16, "lineHeight": "150%"])
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: Self.fonts))
        let face = try registry.resolve(ResolveQuery(family: "Lato", weight: .bold)).face
        let expected = try LayoutAnswer(face: face, size: 16, lineHeight: .percent(150)).jsonValue
        #expect(JSONValue.object(reply) == expected)
        #expect(reply["face"]?["postscriptName"] == "Lato-Bold")
        #expect(reply["lineHeight"]?.doubleValue == 24)
    }

    @Test("Layout and Resolve at a weight between named instances answer with the MVAR metrics there, as fontTools")
    func layoutBetweenInstancesCarriesTheVariedMetrics() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let (path, expected) = try MVARFixture.build(in: directory, locations: ["wght=450", ""])
        let daemon = try DaemonProcess(fonts: [directory])
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let family = try #require(try client.faces(family: nil).first { $0.file == path }).family
        let reply = try client.call(
            "Layout", ["family": .string(family), "weight": "450", "size": 16, "lineHeight": "24px"])
        #expect(reply["metrics"].flatMap(FaceMetrics.init(jsonValue:)) == expected[0])
        #expect(reply["metrics"].flatMap(FaceMetrics.init(jsonValue:)) != expected[1])
        let resolved = try client.resolve(ResolveQuery(family: family, weight: FontWeight(450)!))
        #expect(resolved.face.metrics == expected[0])
        let answer = try LayoutAnswer(face: resolved.face, size: 16, lineHeight: .pixels(24)).jsonValue
        #expect(JSONValue.object(reply) == answer)
    }

    @Test func layoutRefusesABadLineHeightAsAnInvalidParameter() throws {
        let daemon = try DaemonProcess(fonts: Self.fonts)
        let client = try RegistryClient(socketPath: daemon.socketPath)
        #expect(throws: (any Error).self) {
            try client.call("Layout", ["family": "Lato", "size": 16, "lineHeight": "tall"])
        }
    }

    @Test func everyFaceOverVarlinkCarriesItsMetrics() throws {
        let daemon = try DaemonProcess(fonts: Self.fonts)
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let faces = try client.faces(family: "Lato")
        #expect(!faces.isEmpty && faces.allSatisfy { $0.metrics.unitsPerEm == 2000 })
        let regular = try client.face(postscriptName: "Lato-Regular")
        #expect(regular.metrics.hhea == LineMetrics(ascender: 1974, descender: -426, lineGap: 0))
        let resolved = try client.resolve(ResolveQuery(family: "Lato"))
        #expect(resolved.face.metrics == regular.metrics)
    }
}

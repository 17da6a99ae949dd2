import FontRegTestSupport
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol

@Suite("Resolve reply encoding")
struct ResolutionReplyJSONTests {
    static let registry = Result {
        try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [BuildProducts.fixtureFonts]))
    }

    /// The daemon builds replies without JSONEncoder; they must equal `fontresolve --json`'s Codable encoding.
    @Test(arguments: [
        ResolveQuery(family: "Fixture Sans", weight: .semibold),
        ResolveQuery(family: "Fixture Sans", weight: .regular, italic: true, boldText: true, boldPolicy: .iosSystem),
        ResolveQuery(family: "FixtureVar", weight: FontWeight(450)!),
        ResolveQuery(family: "Neue Fixture", weight: .black, italic: true),
    ])
    func jsonValueEqualsTheCodableEncoding(_ query: ResolveQuery) throws {
        let registry = try Self.registry.get()
        let reply = ResolutionReply(try registry.resolve(query))
        let fromCodable = try JSONValue(encoding: reply)
        // JSONEncoder writes 400.0 as 400; as JSON numbers they are the same.
        #expect(Self.normalized(reply.jsonValue) == Self.normalized(fromCodable))
        #expect(ResolutionReply(parameters: reply.parameters) == reply)
        // The typed enums are written with their wire spelling.
        #expect(reply.jsonValue["match"] == .string(reply.match.rawValue))
        #expect(reply.jsonValue["boldPolicy"] == reply.boldPolicy.map { .string($0.rawValue) })
    }

    @Test func everyFixtureFaceWritesTheMembersOfItsCodableEncoding() throws {
        let registry = try Self.registry.get()
        #expect(
            registry.index.faces.contains { $0.instance != nil && !$0.axes.isEmpty }
                || registry.index.faces.contains { !$0.axes.isEmpty })
        for face in registry.index.faces {
            let fromCodable = try JSONValue(encoding: face)
            #expect(Self.normalized(face.jsonValue) == Self.normalized(fromCodable), "\(face.postscriptName)")
            #expect(FaceRecord(jsonValue: face.jsonValue) == face)
        }
    }

    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number) where number == number.rounded(): return .int(Int(number))
        case .array(let elements): return .array(elements.map(normalized))
        case .object(let members): return .object(members.mapValues(normalized))
        default: return value
        }
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// The mapped snapshot of every installed Debian font answers thousands of random queries as
/// the in-memory index does (issue 29): real fonts have what the fixtures lack (duplicate faces
/// across packages, variable fonts beside static ones, odd weights).
@Suite struct SystemFontEquivalenceTests {
    /// The font directories the Debian packages install, those that exist (bounded: no user fonts).
    static let directories: [String] = ["/usr/share/fonts/truetype", "/usr/share/fonts/opentype"].flatMap {
        parent -> [String] in
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        return names.sorted().map { parent + "/" + $0 }
    }

    /// `count` random queries over `families` and a few unknown names.
    static func queries(families: [String], count: Int, seed: UInt64) -> [ResolveQuery] {
        var random = SeededRandom(seed: seed)
        let unknown = ["Nonexistent Family", "", "Noto Sans Klingon", "sans-serif"]
        let policies: [BoldTextPolicy?] = [nil] + BoldTextPolicy.allCases.map(Optional.some)
        let syntheses: [SynthesisPermission] = [.all, .none, SynthesisPermission(weight: true, style: false)]
        return (0..<count).map { _ in
            // One query in twenty asks for a family that is not registered.
            var family = unknown.randomElement(using: &random)!
            if Int.random(in: 0..<20, using: &random) != 0, let known = families.randomElement(using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: family = known.lowercased()
                case 1: family = known.replacingOccurrences(of: " ", with: "-")
                default: family = known
                }
            }
            let style: RequestedStyle
            switch Int.random(in: 0..<4, using: &random) {
            case 0: style = .normal
            case 1: style = .italic
            case 2: style = .oblique(angle: nil)
            default: style = .oblique(angle: Double(Int.random(in: -90...90, using: &random)))
            }
            let widths: [Double?] = [nil, 50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200]
            return ResolveQuery(
                family: family, weight: FontWeight(Int.random(in: 1...1000, using: &random))!,
                boldText: Bool.random(using: &random), boldPolicy: policies.randomElement(using: &random)!,
                strict: Int.random(in: 0..<4, using: &random) == 0, style: style,
                width: widths.randomElement(using: &random)!,
                synthesis: syntheses.randomElement(using: &random)!)
        }
    }

    @Test(.enabled(if: !directories.isEmpty, "no Debian fonts installed"))
    func everyInstalledDebianFontResolvesTheSameFromTheMappingAsInMemory() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: Self.directories, cacheDirectory: cache))
        let index = registry.index
        #expect(index.faceCount > 0)
        let snapshot = try SnapshotEquivalenceTests.mapped(index)
        let inMemory = Resolver(index: index, rules: registry.rules)
        let fromMapping = SnapshotResolver(snapshot: snapshot, rules: registry.rules)
        let queries = Self.queries(families: index.families.map(\.name), count: 5000, seed: 29)
        var answered = 0
        for query in queries {
            let expected = Result { () throws(ResolveError) in try inMemory.resolve(query) }
            let actual = Result { () throws(ResolveError) in try fromMapping.resolve(query) }
            guard actual == expected else {
                Issue.record(
                    "the first query resolved differently: \(query)\nin memory: \(expected)\nmapped: \(actual)")
                return
            }
            if case .success = expected { answered += 1 }
        }
        #expect(answered > queries.count / 2)
    }

    @Test(.enabled(if: !directories.isEmpty, "no Debian fonts installed"))
    func theDebianFontsDuplicateGroupsReadBackFromTheMappingAsBuilt() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: Self.directories, cacheDirectory: cache))
        let snapshot = try SnapshotEquivalenceTests.mapped(registry.index)
        #expect(snapshot.duplicateGroups() == registry.index.duplicates)
        for family in registry.index.families where !family.duplicates.isEmpty {
            #expect(snapshot.family(named: family.name)?.duplicates == family.duplicates, "\(family.name)")
        }
    }

    @Test(.enabled(if: !directories.isEmpty, "no Debian fonts installed"))
    func theDebianFontsStartWarmDuplicatesIncludedAndAnswerAsTheColdStartDid() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let configuration = RegistryConfiguration(fontDirectories: Self.directories, cacheDirectory: cache)
        let cold = try FontRegistry(configuration: configuration)
        let warm = try FontRegistry(configuration: configuration)
        #expect(warm.startMode == .warm, "\(warm.startMode)")
        #expect(warm.index.duplicates == cold.index.duplicates)
        for query in Self.queries(families: cold.index.families.map(\.name), count: 1000, seed: 30) {
            let expected = Result { () throws(ResolveError) in try cold.resolve(query) }
            let actual = Result { () throws(ResolveError) in try warm.resolve(query) }
            guard actual == expected else {
                Issue.record("the first query resolved differently: \(query)\ncold: \(expected)\nwarm: \(actual)")
                return
            }
        }
    }
}

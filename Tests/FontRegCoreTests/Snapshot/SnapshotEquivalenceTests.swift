import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// The mapped snapshot answers every lookup and every resolution as the in-memory index does.
@Suite struct SnapshotEquivalenceTests {
    /// The bundled fonts, scanned once.
    static let bundled: FontRegistry = {
        try! FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: [Fixtures.bundled], rulesDirectory: Fixtures.bundled + "/rules"))
    }()

    /// The index written to a temporary file and mapped back.
    static func mapped(_ index: FontIndex) throws -> MappedSnapshot {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        try SnapshotWriter.write(index, directory: directory, name: "index.snapshot")
        // The mapping outlives the file's name: unlinking it does not take the pages away.
        return try MappedSnapshot(path: directory + "/index.snapshot")
    }

    /// Many queries: every family in several spellings, unknown names, every step and odd
    /// weights, both styles, Bold Text under every policy, strict or not.
    static func queries(families: [String]) -> [ResolveQuery] {
        let names =
            families.flatMap { [$0, $0.lowercased(), $0.replacingOccurrences(of: " ", with: "-")] }
            + ["Nonexistent Family", "", "Fixtur", "lato", "Inter Display"]
        let weights = [1, 100, 200, 250, 300, 350, 400, 450, 500, 600, 700, 750, 800, 900, 950, 1000]
        var queries: [ResolveQuery] = []
        for name in names {
            for weight in weights {
                for italic in [false, true] {
                    queries.append(ResolveQuery(family: name, weight: FontWeight(weight)!, italic: italic))
                }
                for policy in [nil] + BoldTextPolicy.allCases.map(Optional.some) {
                    queries.append(
                        ResolveQuery(
                            family: name, weight: FontWeight(weight)!, italic: weight % 200 == 0, boldText: true,
                            boldPolicy: policy, strict: true))
                }
            }
        }
        return queries
    }

    /// Resolves every query both ways and reports the first difference.
    static func compare(_ index: FontIndex, rules: RuleSet) throws {
        let snapshot = try mapped(index)
        let inMemory = Resolver(index: index, rules: rules)
        let fromMapping = SnapshotResolver(snapshot: snapshot, rules: rules)
        let queries = queries(families: index.families.map(\.name))
        #expect(queries.count > 1000)
        var answered = 0
        for query in queries {
            let expected = Result { () throws(ResolveError) in try inMemory.resolve(query) }
            let actual = Result { () throws(ResolveError) in try fromMapping.resolve(query) }
            #expect(actual == expected, "\(query)")
            if case .success = expected { answered += 1 }
        }
        #expect(answered > queries.count / 2)
    }

    @Test func fixtureFontsResolveTheSameFromTheMappingAsInMemory() throws {
        try Self.compare(Fixtures.registry.index, rules: ResolverTests.quirkRules)
        try Self.compare(Fixtures.registry.index, rules: .empty)
    }

    @Test func bundledFontsResolveTheSameFromTheMappingAsInMemory() throws {
        try Self.compare(Self.bundled.index, rules: Self.bundled.rules)
    }

    @Test func everyFaceAndNameLookupMatchesTheIndex() throws {
        let index = Fixtures.registry.index
        let snapshot = try Self.mapped(index)
        #expect(snapshot.faceCount == index.faces.count)
        #expect(snapshot.familyCount == index.families.count)
        #expect(snapshot.generation == UInt64(index.generation))
        #expect(snapshot.familyNames == index.families.map(\.name))
        for (position, face) in index.faces.enumerated() {
            #expect(snapshot.face(at: position) == face)
            for name in [face.postscriptName, face.postscriptName.uppercased(), face.postscriptName.lowercased()] {
                #expect(snapshot.face(postscriptName: name) == index.face(postscriptName: name))
            }
            #expect(snapshot.face(fullName: face.fullName.lowercased()) == index.face(fullName: face.fullName))
        }
        for entry in index.families {
            let mapped = try #require(snapshot.family(named: entry.name.uppercased()))
            #expect(mapped == entry)
            for slot in 0..<entry.defaultComposed.count {
                #expect(mapped.composed(slot: slot) == entry.composed(slot: slot))
            }
            #expect(mapped.faceCount == entry.faces.count)
            #expect(mapped.defaultRule == entry.defaultRule)
            for style in FontStyle.allCases {
                #expect(mapped.registeredWeights(style: style) == entry.registeredWeights(style: style))
            }
        }
        #expect(snapshot.face(at: index.faces.count) == nil)
        #expect(snapshot.face(postscriptName: "No-Such-Face") == nil)
        #expect(snapshot.family(named: "No Such Family") == nil)
        #expect(snapshot.suggestions(for: "Fixtur Sans") == index.suggestions(for: "Fixtur Sans"))
    }

    @Test func everyFaceReadThroughTheByteBoundedFaceCacheIsTheFaceAtItsPosition() throws {
        // More faces than the cache's bytes hold: faces are evicted, oldest first, and decoded again.
        let count = 5_000
        let faces = (0..<count).map { i in
            FaceRecord(
                postscriptName: "Many\(i)-Regular", family: "Many \(i)", subfamily: "Regular",
                fullName: "Many \(i) Regular", weight: 400, italic: false, file: "/many/\(i).ttf", fileSize: 10)
        }
        let index = FontIndex(faces: faces, generation: 1, directories: ["/many"])
        let snapshot = try MappedSnapshot(bytes: SnapshotWriter.bytes(of: index))
        #expect(snapshot.faceCount == count)
        var random = SeededRandom(seed: 31)
        // Twice over, shuffled: a first read fills a slot (or replaces its other face), a second
        // may be served from it.
        let positions = Array(0..<count)
        for position in positions.shuffled(using: &random) + positions.shuffled(using: &random) {
            guard snapshot.face(at: position) == index.faces[position] else {
                Issue.record("the face at \(position) read back through the cache is another")
                return
            }
        }
    }

    @Test func aMappedIndexListsEachFacesFileAsTheBuiltIndexDoes() throws {
        let index = Fixtures.registry.index
        let mapped = FontIndex(mapped: MappedIndex(snapshot: try Self.mapped(index), problems: []), generation: 1)
        #expect(!index.faceFiles.isEmpty)
        #expect(index.faceFiles == index.faces.map(\.file))
        #expect(mapped.faceFiles == index.faceFiles)
    }

    @Test func anEmptyIndexMapsAndFindsNothing() throws {
        let snapshot = try Self.mapped(FontIndex(faces: [], generation: 7))
        #expect(snapshot.faceCount == 0)
        #expect(snapshot.generation == 7)
        #expect(snapshot.family(named: "Lato") == nil)
        #expect(snapshot.face(postscriptName: "Lato-Bold") == nil)
    }
}

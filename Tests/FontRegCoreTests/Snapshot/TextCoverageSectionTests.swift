import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// The text coverage section of the index file (issue 29 item 2): `ResolveText`'s registry-wide
/// coverage index, read in place from the mapped file instead of built in memory after each start.
@Suite("The coverage index read in place from the index file")
struct TextCoverageSectionTests {
    /// The fixture families, scanned into a registry of their own (its index file in `cache`).
    static func registry(cache: String) throws -> FontRegistry {
        try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: [Fixtures.families], cacheDirectory: cache))
    }

    @Test("A registry served from its index file, after a cold or a warm start, reads the coverage index in place")
    func servedIndexReadsCoverageInPlace() throws {
        let cache = ProcessScratch.directory("fontreg-text-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: cache) }
        for start in ["cold", "warm"] {
            let registry = try Self.registry(cache: cache)
            #expect(registry.index.isMapped, "\(start) start")
            let plans = FallbackPlanCache()
            plans.prepare(registry.index)
            #expect(plans.coverageReadInPlace == true, "\(start) start: the coverage index was built in memory")
            let answer = try TextResolver(resolver: registry.resolver)
                .resolve("Hello", TextQuery(families: ["Fixture Sans"], style: ResolveQuery(family: "")), cache: plans)
            #expect(answer.missing.isEmpty && !answer.runs.isEmpty)
        }
    }

    @Test("An index built in memory lays its coverage index out in memory; a published file has none")
    func builtIndexLaysCoverageOutInMemory() throws {
        let index = FontIndex(faces: ManyScriptFonts.registry.index.faces)
        #expect(!CoverageIndex(index).isMapped)
        let published = try MappedSnapshot(bytes: SnapshotWriter.bytes(of: index))
        #expect(published.textCoverage == nil)
        let withSection = try MappedSnapshot(bytes: SnapshotWriter.bytesWithTextCoverage(of: index))
        #expect(withSection.textCoverage != nil)
    }

    @Test("Read in place from the Debian fonts' index file, the coverage index answers as one built in memory")
    func mappedMatchesBuilt() throws {
        let mapped = ManyScriptFonts.registry.index
        #expect(mapped.isMapped)
        let inPlace = CoverageIndex(mapped)
        #expect(inPlace.isMapped)
        let built = CoverageIndex(ManyScriptFonts.builtIndex)
        #expect(!built.isMapped)
        for design in CoverageIndex.Design.allCases {
            #expect(Array(inPlace.ranked(design).map(\.name)) == Array(built.ranked(design).map(\.name)))
        }
        for region in ["JP", "KR", "SC", "TC", "HK"] {
            for serif in [false, true] {
                #expect(
                    inPlace.regionalFamilies(region, serif: serif).map(\.name)
                        == built.regionalFamilies(region, serif: serif).map(\.name))
            }
        }
        let points = CoverageIndexTests.samplePoints(ManyScriptFonts.builtIndex, stride: 11)
        #expect(points.count > 500)
        for point in points {
            #expect(inPlace.union.contains(point) == built.union.contains(point))
            for design in CoverageIndex.Design.allCases {
                for colorOnly in [false, true] {
                    let a = inPlace.candidates(covering: point, design: design, colorOnly: colorOnly).map(\.name)
                    let b = built.candidates(covering: point, design: design, colorOnly: colorOnly).map(\.name)
                    #expect(a == b, "U+\(String(point, radix: 16)) \(design) colour: \(colorOnly)")
                }
            }
        }
    }

    /// The fixture index's snapshot with the text coverage section, and where the section lies.
    static func fixtureBytes() throws -> (bytes: [UInt8], offset: Int, words: Int) {
        let cache = ProcessScratch.directory("fontreg-text-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let index = FontIndex(faces: try registry(cache: cache).index.faces)
        let bytes = SnapshotWriter.bytesWithTextCoverage(of: index)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 }
        let field = SnapshotLayout.Header.textCoverage
        return (bytes, u32(field + 4), u32(field))
    }

    /// Stores a little-endian `UInt32` into snapshot bytes.
    static func put(_ value: UInt32, at: Int, in bytes: inout [UInt8]) {
        for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    @Test("A section whose header, list or length does not hold is refused when the file is opened, even resealed")
    func brokenSectionIsRefused() throws {
        let (bytes, offset, words) = try Self.fixtureBytes()
        #expect(words > 2 + 2 * TextCoverageSection.listCount)
        _ = try MappedSnapshot(bytes: bytes)
        let field = SnapshotLayout.Header.textCoverage
        let cases: [(String, (inout [UInt8]) -> Void)] = [
            ("family count", { Self.put(9999, at: offset, in: &$0) }),
            ("list outside the section", { Self.put(UInt32(words), at: offset + 4 * 3, in: &$0) }),
            ("section past the public part", { Self.put(UInt32(words + 1 << 20), at: field, in: &$0) }),
        ]
        for (what, damage) in cases {
            var broken = bytes
            damage(&broken)
            SnapshotWriter.reseal(&broken)
            for checks in [MappedSnapshot.Checks.whole, .atAccess] {
                #expect(throws: SnapshotError.self, "\(what), \(checks)") {
                    try MappedSnapshot(bytes: broken, checks: checks)
                }
            }
        }
    }

    @Test("A node or family position out of bounds is refused by the whole check; at access it never traps")
    func damagedEntriesAreRefusedOrSkipped() throws {
        let (bytes, offset, _) = try Self.fixtureBytes()
        func word(_ i: Int) -> Int {
            let at = offset + i * 4
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        let ranked = word(2 + 2 * TextCoverageSection.List.ranked)
        let root = word(2 + 2 * TextCoverageSection.List.trees)
        for (what, at) in [("a family position", offset + ranked * 4), ("a tree node", offset + root * 4 + 8)] {
            var broken = bytes
            Self.put(0x7fff_fff0, at: at, in: &broken)
            SnapshotWriter.reseal(&broken)
            #expect(throws: SnapshotError.self, "\(what)") { try MappedSnapshot(bytes: broken) }
            let lazy = try MappedSnapshot(bytes: broken, checks: .atAccess)
            let coverage = CoverageIndex(FontIndex(mapped: MappedIndex(snapshot: lazy, problems: []), generation: 1))
            #expect(coverage.isMapped)
            for design in CoverageIndex.Design.allCases {
                _ = Array(coverage.ranked(design))
                for point: UInt32 in [0x41, 0x645, 0x4E00, 0x1F600] {
                    _ = Array(coverage.candidates(covering: point, design: design, colorOnly: false))
                    _ = Array(coverage.candidates(covering: point, design: design, colorOnly: true))
                }
            }
        }
    }
}

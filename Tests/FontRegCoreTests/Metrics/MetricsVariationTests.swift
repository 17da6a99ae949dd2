import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// `MVAR` at any coordinates (issue 27) against fontTools' instancer, and malformed tables.
///
/// No font on the test machines has an `MVAR` with metric tags, so `scripts/build-mvar-fixture.py`
/// (``MVARFixture``) gives a copy of the four-axis AxisFixture one (six regions, intermediate and two-axis ones, two
/// variation data) and an `avar` that bends `wght` and `wdth`; fontTools' `instantiateVariableFont`
/// gives the expected metrics at each location.
@Suite("Metrics variation (MVAR)", .timeLimit(.minutes(2)))
struct MetricsVariationTests {
    /// Locations off every named instance, on each axis and together, at the axis ends and clamped beyond.
    static let locations = [
        "wght=450", "wght=650,wdth=87.5", "wght=250,opsz=30", "wght=900,wdth=75,slnt=-6,opsz=8",
        "wght=333.3,wdth=111", "wght=120,wdth=80", "wght=700", "wght=1200",
    ]

    static func fixture(in directory: String, options: [String] = [], locations: [String] = locations) throws -> (
        path: String, expected: [FaceMetrics]
    ) {
        try MVARFixture.build(in: directory, options: options, locations: locations)
    }

    /// The coordinates of a location string, as a resolution's variations carry them.
    static func settings(_ location: String) -> [VariationSetting] {
        location.split(separator: ",").map { pair in
            let parts = pair.split(separator: "=")
            return VariationSetting(tag: String(parts[0]), value: Double(parts[1])!)
        }
    }

    static func registry(_ file: String, cache: String) throws -> FontRegistry {
        try FontRegistry(configuration: RegistryConfiguration(fontFiles: [file], cacheDirectory: cache))
    }

    @Test(
        "The default face's metrics at coordinates off the named instances equal fontTools' instancer there",
        arguments: [[String](), ["--no-avar"], ["--hhea-apart"]])
    func metricsAtCoordinatesEqualFontToolsInstancer(options: [String]) throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let (path, expected) = try Self.fixture(in: directory, options: options)
        let faces = try Self.registry(path, cache: directory + "/cache").index.faces
        let face = try #require(faces.first { $0.instance == nil })
        #expect(face.metricsVariation.problem == nil)
        for (location, metrics) in zip(Self.locations, expected) {
            #expect(face.metrics(at: Self.settings(location)) == metrics, "\(location) \(options)")
        }
        if options == ["--hhea-apart"] {
            #expect(expected.allSatisfy { $0.hhea == face.metrics.hhea }, "hhea stays as stored when apart from typo")
        }
    }

    @Test(
        "A resolve at weight 450 answers with the MVAR metrics at wght 450, also after a warm start from the index file"
    )
    func resolveBetweenInstancesCarriesVariedMetrics() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let (path, expected) = try Self.fixture(in: directory, locations: ["wght=450", ""])
        for _ in 0..<2 {  // cold scan, then the index file
            let registry = try Self.registry(path, cache: directory + "/cache")
            let family = try #require(registry.index.faces.first).family
            let resolution = try registry.resolve(ResolveQuery(family: family, weight: FontWeight(450)!))
            #expect(resolution.variations.contains(VariationSetting(tag: "wght", value: 450)))
            #expect(resolution.face.metrics == expected[0])
            #expect(resolution.face.metrics != expected[1])
            let regular = try registry.resolve(ResolveQuery(family: family, weight: .regular))
            #expect(regular.face.metrics == expected[1])
        }
    }

    /// Where the `MVAR` table lies in an sfnt file, from its table directory.
    static func mvarRange(_ bytes: [UInt8]) throws -> (entry: Int, table: Range<Int>) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        for i in 0..<u16(4) {
            let entry = 12 + 16 * i
            if bytes[entry..<entry + 4].elementsEqual("MVAR".utf8) {
                return (entry, u32(entry + 8)..<u32(entry + 8) + u32(entry + 12))
            }
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    /// Ways to damage the fixture's `MVAR`: each must be ignored with a named problem.
    enum Damage: String, CaseIterable {
        case truncated, storeOffsetOutOfRange, hugeRecordCount, hugeRegionCount, outerIndexOutOfRange

        func apply(_ bytes: inout [UInt8], entry: Int, table: Range<Int>) {
            let at = table.lowerBound
            func put16(_ offset: Int, _ value: Int) {
                bytes[offset] = UInt8(value >> 8)
                bytes[offset + 1] = UInt8(value & 0xFF)
            }
            let store = Int(bytes[at + 10]) << 8 | Int(bytes[at + 11])
            switch self {
            case .truncated: put16(entry + 14, 40)  // the directory's length: the table ends inside the records
            case .storeOffsetOutOfRange: put16(at + 10, 0xFFF0)
            case .hugeRecordCount: put16(at + 8, 0xFFFF)
            case .hugeRegionCount:
                let regions =
                    store + (Int(bytes[at + store + 2]) << 24 | Int(bytes[at + store + 3]) << 16)
                    + (Int(bytes[at + store + 4]) << 8 | Int(bytes[at + store + 5]))
                put16(at + regions + 2, 0xFFFF)
            case .outerIndexOutOfRange: put16(at + 12 + 4, 0x7777)  // the first record's outer index
            }
        }
    }

    @Test(
        "A malformed MVAR is ignored: default metrics at every coordinate, a named problem, no crash",
        arguments: Damage.allCases)
    func malformedMVARIsIgnored(damage: Damage) throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let (path, expected) = try Self.fixture(in: directory, locations: [""])
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let (entry, table) = try Self.mvarRange(bytes)
        damage.apply(&bytes, entry: entry, table: table)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let registry = try Self.registry(path, cache: directory + "/cache")
        let face = try #require(registry.index.faces.first { $0.instance == nil })
        #expect(face.metrics == expected[0])
        let problem = try #require(face.metricsVariation.problem, "\(damage)")
        #expect(problem.hasPrefix("MVAR ignored: "), "\(problem)")
        let resolution = try registry.resolve(ResolveQuery(family: face.family, weight: FontWeight(450)!))
        #expect(resolution.face.metrics == expected[0])
        #expect(
            resolution.notes.contains(.metricsVariationIgnored(postscriptName: face.postscriptName, reason: problem)))
    }

    @Test("Every prefix of a real MVAR and avar either parses or throws a problem, never traps")
    func everyPrefixParsesOrThrows() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let (path, _) = try Self.fixture(in: directory, locations: [])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let mvar = Array(bytes[try Self.mvarRange(bytes).table])
        let whole = try MVARParser.parse(mvar: mvar, avar: nil, axisCount: 4, base: .zero)
        #expect(whole?.regions.count == 6)
        var problems = 0
        for n in 0..<mvar.count {
            do {
                _ = try MVARParser.parse(mvar: Array(mvar[..<n]), avar: nil, axisCount: 4, base: .zero)
            } catch {
                problems += 1
            }
            // A byte flipped to 0xFF anywhere: a problem or a variation, never a trap.
            var flipped = mvar
            flipped[n] = 0xFF
            _ = try? MVARParser.parse(mvar: flipped, avar: nil, axisCount: 4, base: .zero)
        }
        #expect(problems > mvar.count / 2)
        #expect(throws: MVARProblem.self) {
            try MVARParser.parse(mvar: mvar, avar: [0, 1, 0, 0, 0, 0, 0, 9], axisCount: 4, base: .zero)
        }
    }

    @Test("The variation's text form reads back to the same variation")
    func encodedFormRoundTrips() {
        let variation = MetricsVariation(
            base: FaceMetrics(
                unitsPerEm: 1000, hhea: LineMetrics(ascender: 950, descender: -300), typo: LineMetrics(ascender: 900),
                win: WindowsMetrics(ascent: 1, descent: 2), useTypoMetrics: true, capHeight: 700, xHeight: 500),
            avar: [[-16384, -16384, 0, 0, 6554, 9830, 16384, 16384], []], regions: [[0, 16384, 16384, 0, 0, 0]],
            deltas: [[0, 12], [], [], [0, -3], [], [], [0, 40000]])
        #expect(MetricsVariation(encoded: variation.encoded) == variation)
        #expect(MetricsVariationSlot(encoded: "!MVAR ignored: x").problem == "MVAR ignored: x")
        #expect(MetricsVariation(encoded: "1 2 3") == nil)
    }
}

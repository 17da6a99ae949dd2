import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// A registry of every Debian font installed for the tests: Noto (a hundred scripts, CJK, colour
/// emoji), Lato, DejaVu, Liberation, Open Sans, Roboto, Inter — many families per script.
enum ManyScriptFonts {
    static let directories = [
        "/usr/share/fonts/truetype", "/usr/share/fonts/opentype",
    ]

    static let registry: FontRegistry = {
        let cache = ProcessScratch.directory("fontreg-coverage")
        return try! FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: cache))
    }()

    /// The registry's faces indexed in memory. The registry serves its index file mapped, where each
    /// `faces` decodes the family's records again; the scans below ask for them millions of times.
    static let builtIndex = FontIndex(
        faces: registry.index.faces, problems: registry.index.problems, directories: directories)
}

/// The search registry-wide fallback made before the coverage index: every family, ranked, each
/// family's faces checked in turn. Kept here as the oracle the index is compared with.
enum LinearFallback {
    /// The old order: the wanted design first, then the shorter name, then the lowercased name.
    static func ranked(_ families: [FamilyEntry], design: CoverageIndex.Design) -> [FamilyEntry] {
        let wanted = design.word
        func rank(_ name: String) -> (Int, Int, String) {
            let lower = name.lowercased()
            let first = lower.contains(wanted) && (wanted != "sans" || !lower.contains("mono")) ? 0 : 1
            return (first, name.count, lower)
        }
        return families.map { (rank($0.name), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The families a scan finds with a face that maps `codePoint` (a colour face when asked), in order.
    static func candidates(_ ranked: [FamilyEntry], _ codePoint: UInt32, colorOnly: Bool) -> [String] {
        ranked.filter { $0.faces.contains { $0.coverage.contains(codePoint) && (!colorOnly || $0.isColor) } }
            .map(\.name)
    }

    /// The plan's answer for a cluster, step by step as `FallbackPlan.search` makes it, by scanning.
    static func choose(
        _ cluster: Character, kind: ClusterKind, query: TextQuery, resolver: Resolver
    ) -> String? {
        func face(_ family: String) -> FaceRecord? {
            var asked = query.style
            asked.family = family
            asked.strict = true
            return try? resolver.resolve(asked).face
        }
        func generic(_ name: String) -> [String] {
            var seen = Set<FamilyKey>()
            return FontconfigGenerics.shared.families(for: name, language: query.language).filter {
                resolver.index.family(named: $0) != nil && seen.insert(FamilyKey($0)).inserted
            }
        }
        let design = CoverageIndex.Design.of(query.families)
        let ranked = ranked(resolver.index.families, design: design)
        func search(colorOnly: Bool) -> String? {
            func fits(_ face: FaceRecord) -> Bool { face.coverage.covers(cluster) && (!colorOnly || face.isColor) }
            var stack: [String] = []
            for name in query.families {
                if TextQuery.genericFamilies.contains(name.lowercased()) {
                    stack += generic(name.lowercased())
                } else {
                    stack.append(name)
                }
            }
            for family in stack { if let face = face(family), fits(face) { return face.postscriptName } }
            if kind == .han {
                let language = query.language ?? HanRegion.assumedLanguage
                if let region = HanRegion.region(for: language) ?? HanRegion.region(for: HanRegion.assumedLanguage) {
                    let serif = query.families.contains { $0.lowercased() == "serif" }
                    let regional = ranked.filter { HanRegion.family($0.name, isOf: region) }.sorted {
                        ($0.name.lowercased().contains("serif") == serif ? 0 : 1, $0.name) < (
                            $1.name.lowercased().contains("serif") == serif ? 0 : 1, $1.name
                        )
                    }
                    for family in regional {
                        if let face = face(family.name), fits(face) { return face.postscriptName }
                    }
                }
            }
            if colorOnly {
                for family in generic("emoji") { if let face = face(family), fits(face) { return face.postscriptName } }
            }
            for family in generic("sans-serif") {
                if let face = face(family), fits(face) { return face.postscriptName }
            }
            // A character of a script's block: first a family whose face supports the script's language.
            let probe = cluster.unicodeScalars.first { !CharacterCoverage.isIgnorable($0) }?.value
            if let language = probe.flatMap(ScriptLanguage.language(of:)) {
                for family in ranked where family.faces.contains(where: fits) {
                    if let face = face(family.name), fits(face), face.coverage.supports(language: language) {
                        return face.postscriptName
                    }
                }
            }
            for family in ranked where family.faces.contains(where: fits) {
                if let face = face(family.name), fits(face) { return face.postscriptName }
            }
            return nil
        }
        return search(colorOnly: kind == .colorEmoji) ?? (kind == .colorEmoji ? search(colorOnly: false) : nil)
    }
}

@Suite("Registry-wide fallback through the coverage index, with every installed Debian font")
struct CoverageIndexTests {
    /// Code points to ask about: the first, middle and last of every range of every family's faces
    /// (every script the fonts have), and code points no face maps (private use, unassigned, cuneiform).
    static func samplePoints(_ index: FontIndex, stride step: Int) -> [UInt32] {
        var points = Set<UInt32>()
        for family in index.families {
            for face in family.faces.prefix(2) {
                let ranges = face.coverage.ranges
                for i in Swift.stride(from: 0, to: ranges.count, by: 2 * step) {
                    points.insert(ranges[i])
                    points.insert(ranges[i + 1])
                    points.insert(ranges[i] + (ranges[i + 1] - ranges[i]) / 2)
                }
            }
        }
        for point: UInt32 in [0xE000, 0xF0000, 0x10FFFD, 0x0378, 0x12000, 0x1F8FF, 0x2FFFF] { points.insert(point) }
        return points.sorted()
    }

    @Test("The index's candidates are the families a scan of every family finds, in the same order, for each design")
    func candidatesMatchTheScan() throws {
        let index = ManyScriptFonts.builtIndex
        #expect(index.families.count > 100)
        let coverage = CoverageIndex(index)
        let points = Self.samplePoints(index, stride: 7)
        #expect(points.count > 1000)
        for design in CoverageIndex.Design.allCases {
            let ranked = LinearFallback.ranked(index.families, design: design)
            #expect(Array(coverage.ranked(design).map(\.name)) == ranked.map(\.name))
            for point in points {
                for colorOnly in [false, true] {
                    let scan = LinearFallback.candidates(ranked, point, colorOnly: colorOnly)
                    let indexed = coverage.candidates(covering: point, design: design, colorOnly: colorOnly)
                        .filter { $0.faces.contains { $0.coverage.contains(point) && (!colorOnly || $0.isColor) } }
                        .map(\.name)
                    #expect(indexed == scan, "U+\(String(point, radix: 16)) \(design) colour: \(colorOnly)")
                }
                #expect(
                    coverage.union.contains(point)
                        == index.families.contains { $0.faces.contains { $0.coverage.contains(point) } })
            }
        }
    }

    @Test(
        "Plans choose the same face as the scan of every family, across scripts, stacks, weights and languages",
        arguments: [
            (["Lato"], 400, nil), (["serif"], 700, "ja"), (["monospace"], 400, "ko"), (["Inter", "emoji"], 300, nil),
        ] as [([String], Int, String?)])
    func choicesMatchTheScan(families: [String], weight: Int, language: String?) throws {
        let resolver = ManyScriptFonts.registry.resolver
        let query = TextQuery(
            families: families, style: ResolveQuery(family: "", weight: FontWeight(weight)!), language: language)
        var plan = FallbackPlan(resolver: resolver, query: query)
        plan.begin(coverage: nil)
        var checked = 0
        for point in Self.samplePoints(resolver.index, stride: 13) {
            guard let scalar = Unicode.Scalar(point) else { continue }
            let cluster = Character(scalar)
            let kind = ClusterKind.of(cluster)
            let old = LinearFallback.choose(cluster, kind: kind, query: query, resolver: resolver)
            plan.begin(coverage: nil)
            let new = plan.choose(for: cluster, kind: kind)?.face.postscriptName
            #expect(new == old, "U+\(String(point, radix: 16)) \(kind)")
            checked += 1
        }
        // Clusters of more than one scalar: a base with marks, emoji sequences, flags.
        for text in ["é", "नमस्ते", "👩‍💻", "🇯🇵", "1️⃣", "ب\u{0651}", "ก\u{0E49}", "\u{FE0F}"] {
            for cluster in text {
                let kind = ClusterKind.of(cluster)
                plan.begin(coverage: nil)
                #expect(
                    plan.choose(for: cluster, kind: kind)?.face.postscriptName
                        == LinearFallback.choose(cluster, kind: kind, query: query, resolver: resolver), "\(cluster)")
            }
        }
        #expect(checked > 500)
    }

    @Test("Characters no face maps are answered from the index: no family is examined, and they are listed as missing")
    func uncoveredExaminesNoFamily() throws {
        let resolver = ManyScriptFonts.registry.resolver
        let cache = FallbackPlanCache()
        let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: ""))
        let text = String(String.UnicodeScalarView((0xF0000..<0xF0400).compactMap(Unicode.Scalar.init)))
        let answer = try TextResolver(resolver: resolver).resolve(text, query, cache: cache)
        #expect(answer.missing.count == 1024)
        let plan = try #require(cache.take(query, generation: resolver.index.generation))
        #expect(plan.familiesExamined == 0)
        // A character only a registry-wide family maps examines the families the index names, not all.
        var fresh = FallbackPlan(resolver: resolver, query: query, coverage: cache)
        fresh.begin(coverage: cache)
        for scalar in ["\u{1000}", "\u{0F40}", "\u{13A0}", "\u{1780}"].compactMap(\.unicodeScalars.first) {
            _ = fresh.choose(for: Character(scalar), kind: .text)
        }
        #expect(fresh.familiesExamined <= 8)
    }

    @Test("A new index generation rebuilds the coverage index: faces removed no longer serve, added ones do")
    func generationChangeRebuilds() throws {
        let whole = ManyScriptFonts.registry.index
        let cache = FallbackPlanCache()
        let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: ""))
        let arabic = "مرحبا"
        let before = try TextResolver(resolver: Resolver(index: whole)).resolve(arabic, query, cache: cache)
        #expect(before.missing.isEmpty)
        let first = cache.coverage(for: whole)
        let withoutArabic = FontIndex(
            faces: whole.faces.filter { !$0.coverage.contains(0x0645) }, generation: whole.generation + 1)
        let after = try TextResolver(resolver: Resolver(index: withoutArabic)).resolve(arabic, query, cache: cache)
        #expect(after.missing.contains(0x0645))
        let second = cache.coverage(for: withoutArabic)
        #expect(second !== first && second.generation == whole.generation + 1)
        #expect(!second.union.contains(0x0645))
        let back = FontIndex(faces: whole.faces, generation: whole.generation + 2)
        let again = try TextResolver(resolver: Resolver(index: back)).resolve(arabic, query, cache: cache)
        #expect(
            again.missing.isEmpty
                && again.runs.map(\.resolution.face.postscriptName) == before.runs.map(\.resolution.face.postscriptName)
        )
    }
}

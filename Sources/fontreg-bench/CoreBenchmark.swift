import FontRegCore
import Foundation

/// The core benchmark: index build and in-process resolve, each against fontconfig on the same fonts.
///
/// Run through `scripts/bench-all.sh` (every benchmark, `docs/benchmarks.md`) or
/// `scripts/bench-core.sh` (this table only).
public enum CoreBenchmark {
    /// One corpus's figures.
    public struct Result: Sendable, Codable {
        public var label: String
        public var faces: Int
        public var families: Int
        public var fontconfigPatterns: Int
        /// `FontRegistry(configuration:)` with an empty face cache.
        public var buildSeconds: Double
        /// Until the registry's private fontconfig view holds every file too.
        public var buildWithFontconfigSeconds: Double
        /// `FontRegistry(configuration:)` again with the face cache the first build wrote.
        public var warmBuildSeconds: Double
        public var fontconfigUncachedSeconds: Double
        public var fontconfigCachedSeconds: Double
        public var queries: Int
        public var resolveNanoseconds: Double
        public var resolveCalls: Int
        public var fcFontMatchNanoseconds: Double
        public var fcFontMatchCalls: Int
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = now()
        try work()
        return Double(now() - start) / 1e9
    }

    /// The benchmark's queries over an index: families spread by a large prime step, the
    /// nine weights, upright and italic alternating, every third with Bold Text.
    public static func queries(families: [String], count: Int) -> [ResolveQuery] {
        var queries: [ResolveQuery] = []
        var n = 0
        while queries.count < count && !families.isEmpty {
            let family = families[(n * 7919) % families.count]
            let weight = FontWeight.steps[n % 9]
            queries.append(ResolveQuery(family: family, weight: weight, italic: n % 2 == 1, boldText: n % 3 == 0))
            n += 1
        }
        return queries
    }

    /// Measures one corpus.
    ///
    /// - Parameters:
    ///   - directories: the font directories.
    ///   - queryCount: how many distinct queries (families × weights × styles, cycled).
    ///   - minimumSeconds: how long each resolve loop runs at least (`FcFontMatch` stops
    ///     after this long even inside a round: on 100,000 faces one call takes milliseconds).
    ///   - queriesFile: where to write the queries as `family<TAB>weight<TAB>italic` lines, for peers in other languages.
    public static func run(
        label: String, directories: [String], queryCount: Int = 2000, minimumSeconds: Double = 1.0,
        queriesFile: String? = nil
    ) throws -> Result {
        let cache = NSTemporaryDirectory() + "fontreg-bench-fc-" + UUID().uuidString
        let ours = cache + "-ours"
        defer {
            try? FileManager.default.removeItem(atPath: cache)
            try? FileManager.default.removeItem(atPath: ours)
        }
        let buildStart = now()
        var registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: ours))
        let build = Double(now() - buildStart) / 1e9
        _ = registry.fontconfigPatternCount  // waits for the private fontconfig view, filled in the background
        let buildWithFontconfig = Double(now() - buildStart) / 1e9
        let warmStart = now()
        registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: ours))
        let warmBuild = Double(now() - warmStart) / 1e9
        _ = registry.fontconfigPatternCount  // not timed: keeps its background work out of what follows
        var peer: FontconfigPeer!
        let fcUncached = seconds { peer = FontconfigPeer(directories: directories, cacheDirectory: cache) }
        let fcCached = seconds { peer = FontconfigPeer(directories: directories, cacheDirectory: cache) }

        let index = registry.index
        let families = index.families.map(\.name)
        let queries = Self.queries(families: families, count: queryCount)
        if let queriesFile {
            let lines = queries.map { "\($0.family)\t\($0.weight.value)\t\($0.italic ? 1 : 0)\n" }.joined()
            try? lines.write(toFile: queriesFile, atomically: true, encoding: .utf8)
        }
        // Each loop is timed in rounds and the median round's cost per call is the figure: on a
        // machine shared with compilers a preempted round is an outlier, not a trend.
        let resolver = registry.resolver
        var resolved = 0
        var resolveRounds: [Double] = []
        let resolveStart = now()
        repeat {
            let start = now()
            for query in queries where (try? resolver.resolve(query)) != nil { resolved += 1 }
            resolveRounds.append(Double(now() - start) / Double(queries.count))
        } while Double(now() - resolveStart) / 1e9 < minimumSeconds
        peer.prepare(queries)
        var fcCalls = 0
        var matched = 0
        var fcRounds: [Double] = []
        let fcStart = now()
        let slice = 16
        repeat {
            let first = fcCalls % peer.preparedCount
            let end = min(first + slice, peer.preparedCount)
            let start = now()
            matched += peer.matchPrepared(first..<end)
            fcRounds.append(Double(now() - start) / Double(end - first))
            fcCalls += end - first
        } while Double(now() - fcStart) / 1e9 < minimumSeconds
        precondition(resolved > 0 && matched > 0, "the benchmark resolved nothing: check the font directories")
        return Result(
            label: label, faces: index.faces.count, families: families.count, fontconfigPatterns: peer.patternCount,
            buildSeconds: build, buildWithFontconfigSeconds: buildWithFontconfig, warmBuildSeconds: warmBuild,
            fontconfigUncachedSeconds: fcUncached, fontconfigCachedSeconds: fcCached,
            queries: queries.count, resolveNanoseconds: median(resolveRounds),
            resolveCalls: resolveRounds.count * queries.count,
            fcFontMatchNanoseconds: median(fcRounds), fcFontMatchCalls: fcCalls)
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// The figures as Markdown table rows (see ``tableHeader``).
    public static func row(_ r: Result) -> String {
        func ms(_ s: Double) -> String { String(format: "%.0f ms", s * 1000) }
        func us(_ ns: Double) -> String {
            ns >= 1000 ? String(format: "%.1f µs", ns / 1000) : String(format: "%.0f ns", ns)
        }
        return
            "| \(r.label) | \(r.faces) | \(r.families) | \(ms(r.buildSeconds)) / \(ms(r.warmBuildSeconds)) / \(ms(r.buildWithFontconfigSeconds)) | \(ms(r.fontconfigUncachedSeconds)) / \(ms(r.fontconfigCachedSeconds)) | \(String(format: "%.2f×", r.buildSeconds / r.fontconfigUncachedSeconds)) | \(us(r.resolveNanoseconds)) | \(us(r.fcFontMatchNanoseconds)) | **\(String(format: "%.0f×", r.fcFontMatchNanoseconds / r.resolveNanoseconds))** |"
    }

    public static let tableHeader = """
        | corpus | faces | families | fontreg ready to serve cold / warm face cache / with its fontconfig view | fontconfig scan, uncached / warm cache | ready ÷ fontconfig uncached | fontreg resolve / query | FcFontMatch / query | resolve speed-up |
        |---|---|---|---|---|---|---|---|---|
        """
}

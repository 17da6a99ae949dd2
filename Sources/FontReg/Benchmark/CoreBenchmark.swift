import Foundation

/// The core benchmark: index build and in-process resolve, each against fontconfig on the same fonts.
///
/// Run through `scripts/bench-core.sh`, which writes the figures into `docs/benchmarks.md`.
public enum CoreBenchmark {
    /// One corpus's figures.
    public struct Result: Sendable {
        public var label: String
        public var faces: Int
        public var families: Int
        public var fontconfigPatterns: Int
        public var buildSeconds: Double
        public var buildWithFontconfigSeconds: Double
        public var fontconfigUncachedSeconds: Double
        public var fontconfigCachedSeconds: Double
        public var queries: Int
        public var resolveNanoseconds: Double
        public var fcFontMatchNanoseconds: Double
    }

    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try work()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Measures one corpus.
    ///
    /// - Parameters:
    ///   - directories: the font directories.
    ///   - queryCount: how many distinct queries (families × weights × styles, cycled).
    ///   - minimumSeconds: how long each resolve loop runs at least.
    public static func run(label: String, directories: [String], queryCount: Int = 2000, minimumSeconds: Double = 1.0) throws -> Result {
        let cache = NSTemporaryDirectory() + "fontreg-bench-fc-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: cache) }
        var registry: FontRegistry!
        let buildStart = DispatchTime.now().uptimeNanoseconds
        registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: cache + "-ours"))
        let build = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e9
        _ = registry.fontconfigPatternCount  // waits for the private fontconfig view, filled in the background
        let buildWithFontconfig = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e9
        var peer: FontconfigPeer!
        let fcUncached = seconds { peer = FontconfigPeer(directories: directories, cacheDirectory: cache) }
        let fcCached = seconds { peer = FontconfigPeer(directories: directories, cacheDirectory: cache) }

        let index = registry.index
        let families = index.families.map(\.name)
        var queries: [ResolveQuery] = []
        var n = 0
        while queries.count < queryCount && !families.isEmpty {
            let family = families[(n * 7919) % families.count]
            let weight = FontWeight.steps[n % 9]
            queries.append(ResolveQuery(family: family, weight: weight, italic: n % 2 == 1, boldText: n % 3 == 0))
            n += 1
        }
        let resolver = registry.resolver
        var resolved = 0
        var rounds = 0
        let resolveStart = DispatchTime.now().uptimeNanoseconds
        repeat {
            for query in queries where (try? resolver.resolve(query)) != nil { resolved += 1 }
            rounds += 1
        } while Double(DispatchTime.now().uptimeNanoseconds - resolveStart) / 1e9 < minimumSeconds
        let resolveTime = Double(DispatchTime.now().uptimeNanoseconds - resolveStart) / 1e9
        peer.prepare(queries)
        var fcRounds = 0
        var matched = 0
        let fcStart = DispatchTime.now().uptimeNanoseconds
        repeat {
            matched += peer.matchPrepared()
            fcRounds += 1
        } while Double(DispatchTime.now().uptimeNanoseconds - fcStart) / 1e9 < minimumSeconds
        let fcTime = Double(DispatchTime.now().uptimeNanoseconds - fcStart) / 1e9
        precondition(resolved > 0 && matched > 0, "the benchmark resolved nothing: check the font directories")
        return Result(
            label: label, faces: index.faces.count, families: families.count, fontconfigPatterns: peer.patternCount,
            buildSeconds: build, buildWithFontconfigSeconds: buildWithFontconfig, fontconfigUncachedSeconds: fcUncached, fontconfigCachedSeconds: fcCached,
            queries: queries.count, resolveNanoseconds: resolveTime * 1e9 / Double(rounds * queries.count),
            fcFontMatchNanoseconds: fcTime * 1e9 / Double(fcRounds * queries.count))
    }

    /// The figures as Markdown table rows (see ``tableHeader``).
    public static func row(_ r: Result) -> String {
        func ms(_ s: Double) -> String { String(format: "%.0f ms", s * 1000) }
        func us(_ ns: Double) -> String { ns >= 1000 ? String(format: "%.1f µs", ns / 1000) : String(format: "%.0f ns", ns) }
        return "| \(r.label) | \(r.faces) | \(r.families) | \(ms(r.buildSeconds)) / \(ms(r.buildWithFontconfigSeconds)) | \(ms(r.fontconfigUncachedSeconds)) / \(ms(r.fontconfigCachedSeconds)) | \(String(format: "%.2f×", r.buildSeconds / r.fontconfigUncachedSeconds)) | \(us(r.resolveNanoseconds)) | \(us(r.fcFontMatchNanoseconds)) | **\(String(format: "%.0f×", r.fcFontMatchNanoseconds / r.resolveNanoseconds))** |"
    }

    public static let tableHeader = """
        | corpus | faces | families | fontreg ready to serve / with its fontconfig view | fontconfig scan, uncached / warm cache | ready ÷ fontconfig uncached | fontreg resolve / query | FcFontMatch / query | resolve speed-up |
        |---|---|---|---|---|---|---|---|---|
        """
}

import FontRegCore
import Foundation

/// Resolve through a mapped snapshot against resolve in memory, on the same index and queries.
///
/// `fontreg-bench --snapshot LABEL=DIR …` (docs/benchmarks.md, "Resolve from the mapped snapshot").
enum SnapshotBenchmark {
    /// One corpus's figures.
    struct Result {
        var label: String
        var faces: Int
        var families: Int
        var fileBytes: Int
        var writeSeconds: Double
        var openSeconds: Double
        var inMemoryNanoseconds: Double
        var mappedNanoseconds: Double
        var mappedUncachedNanoseconds: Double
    }

    /// Scans a corpus, writes its snapshot, and times the same queries both ways.
    static func run(label: String, directories: [String], minimumSeconds: Double) throws -> Result {
        let scratch = NSTemporaryDirectory() + "fontreg-bench-snapshot-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: scratch + "/cache"))
        _ = registry.fontconfigPatternCount  // its background work stays out of the timings
        let index = registry.index
        let writeSeconds = CoreBenchmark.seconds { try? SnapshotWriter.write(index, directory: scratch, name: "s") }
        let path = scratch + "/s"
        var mapped: MappedSnapshot!
        let openSeconds = try CoreBenchmark.seconds { mapped = try MappedSnapshot(path: path) }
        let uncached = try MappedSnapshot(path: path, cacheLimit: 0)
        let queries = CoreBenchmark.queries(families: index.families.map(\.name), count: 2000)
        let inMemory = Resolver(index: index, rules: registry.rules)
        let fromMapping = SnapshotResolver(snapshot: mapped, rules: registry.rules)
        for query in queries {
            let expected = Swift.Result { () throws(ResolveError) in try inMemory.resolve(query) }
            let actual = Swift.Result { () throws(ResolveError) in try fromMapping.resolve(query) }
            precondition(expected == actual, "the mapping resolved \(query) differently")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 } ?? 0
        return Result(
            label: label, faces: index.faces.count, families: index.families.count, fileBytes: size,
            writeSeconds: writeSeconds, openSeconds: openSeconds,
            inMemoryNanoseconds: time(queries, minimumSeconds) { try inMemory.resolve($0) },
            mappedNanoseconds: time(queries, minimumSeconds) { try fromMapping.resolve($0) },
            mappedUncachedNanoseconds: time(queries, minimumSeconds) {
                try SnapshotResolver(snapshot: uncached, rules: registry.rules).resolve($0)
            })
    }

    /// The median round's cost per query of `resolve` over the queries, cycled for at least `minimumSeconds`.
    static func time(
        _ queries: [ResolveQuery], _ minimumSeconds: Double, _ resolve: (ResolveQuery) throws -> Resolution
    ) -> Double {
        var rounds: [Double] = []
        let start = CoreBenchmark.now()
        repeat {
            let roundStart = CoreBenchmark.now()
            var resolved = 0
            for query in queries where (try? resolve(query)) != nil { resolved += 1 }
            precondition(resolved > 0)
            rounds.append(Double(CoreBenchmark.now() - roundStart) / Double(queries.count))
        } while Double(CoreBenchmark.now() - start) / 1e9 < minimumSeconds
        return CoreBenchmark.median(rounds)
    }

    /// The table's header.
    static let tableHeader = """
        | corpus | faces | families | snapshot file | write (atomic) | map + validate | resolve in memory | resolve through the mapping | ÷ in memory | decoding every family (no cache) | ÷ in memory |
        |---|---|---|---|---|---|---|---|---|---|---|
        """

    /// One corpus as a table row.
    static func row(_ r: Result) -> String {
        func us(_ ns: Double) -> String { String(format: "%.2f µs", ns / 1000) }
        func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
        let perFace = Double(r.fileBytes) / Double(max(1, r.faces))
        return
            "| \(r.label) | \(r.faces) | \(r.families) | \(String(format: "%.1f MiB (%.0f B/face)", Double(r.fileBytes) / 1_048_576, perFace)) | \(ms(r.writeSeconds)) | \(ms(r.openSeconds)) | \(us(r.inMemoryNanoseconds)) | \(us(r.mappedNanoseconds)) | \(String(format: "%.2f×", r.mappedNanoseconds / r.inMemoryNanoseconds)) | \(us(r.mappedUncachedNanoseconds)) | \(String(format: "%.2f×", r.mappedUncachedNanoseconds / r.inMemoryNanoseconds)) |"
    }
}

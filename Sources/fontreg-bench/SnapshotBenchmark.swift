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
        var checkedNanoseconds: Double
    }

    /// Scans a corpus (or, for `synthetic:N`, builds N records shaped like scripts/make-corpus.py's
    /// in memory), writes its snapshot, and times the same queries both ways.
    static func run(label: String, directories: [String], minimumSeconds: Double) throws -> Result {
        let scratch = NSTemporaryDirectory() + "fontreg-bench-snapshot-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let index: FontIndex
        var rules = RuleSet.empty
        if directories.count == 1, directories[0].hasPrefix("synthetic:"), let count = Int(directories[0].dropFirst(10))
        {
            index = FontIndex(faces: synthetic(count), generation: 1)
        } else {
            let registry = try FontRegistry(
                configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: scratch + "/cache"))
            _ = registry.fontconfigPatternCount  // its background work stays out of the timings
            index = registry.index
            rules = registry.rules
        }
        let writeSeconds = CoreBenchmark.seconds {
            try? SnapshotWriter.write(index, rules: rules, directory: scratch, name: "s")
        }
        let path = scratch + "/s"
        var mapped: MappedSnapshot!
        let openSeconds = try CoreBenchmark.seconds { mapped = try MappedSnapshot(path: path) }
        let queries = CoreBenchmark.queries(families: index.families.map(\.name), count: 2000)
        let inMemory = Resolver(index: index, rules: rules)
        let fromMapping = SnapshotResolver(snapshot: mapped, rules: mapped.rules)
        for query in queries {
            let expected = Swift.Result { () throws(ResolveError) in try inMemory.resolve(query) }
            let actual = Swift.Result { () throws(ResolveError) in try fromMapping.resolve(query) }
            guard expected == actual else {
                // A wrong answer from the mapping is a bug: say which query and both answers, then stop.
                FileHandle.standardError.write(
                    Data(
                        """
                        \(label): the mapping resolved a query differently
                          query: \(query)
                          in memory: \(expected)
                          mapped: \(actual)

                        """.utf8))
                exit(70)
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 } ?? 0
        return Result(
            label: label, faces: index.faces.count, families: index.families.count, fileBytes: size,
            writeSeconds: writeSeconds, openSeconds: openSeconds,
            inMemoryNanoseconds: time(queries, minimumSeconds) { try inMemory.resolve($0) },
            mappedNanoseconds: time(queries, minimumSeconds) { try fromMapping.resolve($0) },
            checkedNanoseconds: time(queries, minimumSeconds) { query in
                // What a client does per answer: the generation check, then the resolve.
                precondition(mapped.isCurrent)
                return try fromMapping.resolve(query)
            })
    }

    /// `count` faces as scripts/make-corpus.py names them: families "Corpus NNNNN" of nine weights
    /// upright and italic, PostScript names `CorpusNNNNN-BoldItalic`, one file per face.
    static func synthetic(_ count: Int) -> [FaceRecord] {
        let names = [
            100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium", 600: "SemiBold",
            700: "Bold", 800: "ExtraBold", 900: "Black",
        ]
        var faces: [FaceRecord] = []
        var family = 0
        while faces.count < count {
            family += 1
            let name = String(format: "Corpus %05d", family)
            let root = name.replacingOccurrences(of: " ", with: "")
            for weight in stride(from: 100, through: 900, by: 100) {
                for italic in [false, true] where faces.count < count {
                    let style = names[weight]! + (italic ? " Italic" : "")
                    let ps = "\(root)-\(names[weight]!)\(italic ? "Italic" : "")"
                    faces.append(
                        FaceRecord(
                            postscriptName: ps, family: name, subfamily: style, fullName: "\(name) \(style)",
                            weight: weight, italic: italic,
                            file: String(format: "/corpus/%03d/", family / 500) + ps + ".ttf", fileSize: 1800))
                }
            }
        }
        return faces
    }

    /// The median cost per query of `resolve`, in rounds of 32 queries cycled over all of them for at
    /// least `minimumSeconds`, each round timed in the thread's CPU time: on a machine shared with
    /// compilers a wall-clock round of slow queries spans preemptions and counts other processes' time.
    static func time(
        _ queries: [ResolveQuery], _ minimumSeconds: Double, _ resolve: (ResolveQuery) throws -> Resolution
    ) -> Double {
        var rounds: [Double] = []
        var next = 0
        var resolved = 0
        let start = CoreBenchmark.now()
        repeat {
            let roundStart = threadCPUNanoseconds()
            for _ in 0..<32 {
                if (try? resolve(queries[next])) != nil { resolved += 1 }
                next = (next + 1) % queries.count
            }
            rounds.append(Double(threadCPUNanoseconds() - roundStart) / 32)
        } while Double(CoreBenchmark.now() - start) / 1e9 < minimumSeconds || next != 0
        precondition(resolved > 0)
        return CoreBenchmark.median(rounds)
    }

    /// The CPU time this thread has used, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The table's header.
    static let tableHeader = """
        | corpus | faces | families | snapshot file | write (atomic) | map + validate | resolve in memory | resolve through the mapping | ÷ in memory | with the generation check | ÷ in memory |
        |---|---|---|---|---|---|---|---|---|---|---|
        """

    /// One corpus as a table row.
    static func row(_ r: Result) -> String {
        func us(_ ns: Double) -> String { String(format: "%.2f µs", ns / 1000) }
        func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
        let perFace = Double(r.fileBytes) / Double(max(1, r.faces))
        return
            "| \(r.label) | \(r.faces) | \(r.families) | \(String(format: "%.1f MiB (%.0f B/face)", Double(r.fileBytes) / 1_048_576, perFace)) | \(ms(r.writeSeconds)) | \(ms(r.openSeconds)) | \(us(r.inMemoryNanoseconds)) | \(us(r.mappedNanoseconds)) | \(String(format: "%.2f×", r.mappedNanoseconds / r.inMemoryNanoseconds)) | \(us(r.checkedNanoseconds)) | \(String(format: "%.2f×", r.checkedNanoseconds / r.inMemoryNanoseconds)) |"
    }
}

import FontRegCore
import FontRegProtocol
import Foundation

/// Text resolution by coverage (issue 12): time per code point in process, over the socket, and
/// fontconfig's `FcFontSort` + charset walk on the same text, in the same run; with Pango's
/// itemizer beside them when `scripts/bench-fallback.sh` measured it (issue 29).
///
/// Run through `scripts/bench-fallback.sh`, which starts the daemon and writes `docs/benchmarks.md`.
enum FallbackBenchmark {
    /// One text's figures.
    struct Row {
        var label: String
        var bytes: Int
        var codePoints: Int
        var runs: Int
        var inProcessNanoseconds: Double
        /// In process with the plans kept across calls (a ``FallbackPlanCache``, as the daemon keeps).
        var keptPlansNanoseconds: Double
        /// Over the socket, the compact reply (what ``RegistryClient/resolveText(_:_:explain:statingBoldText:compact:)`` asks).
        var socketNanoseconds: Double?
        /// Over the socket, the full reply (each run with its face).
        var fullSocketNanoseconds: Double?
        var fontconfigNanoseconds: Double
        /// Pango's `pango_itemize` per code point and its items, from `scripts/bench-pango-itemize.c`.
        var pango: (nanoseconds: Double, items: Int)?
    }

    /// What coverage costs in memory over a corpus.
    struct Memory {
        var faces: Int
        var totalBytes: Int
        var largest: (name: String, bytes: Int)
    }

    /// Measures coverage memory and every text.
    static func run(
        directories: [String], texts: [(label: String, text: String)], family: String, socket: String?,
        minimumSeconds: Double, pango: [String: (nanoseconds: Double, items: Int)] = [:]
    ) throws -> (Memory, [Row]) {
        let cache = NSTemporaryDirectory() + "fontreg-bench-fallback-" + UUID().uuidString
        defer {
            try? FileManager.default.removeItem(atPath: cache)
            try? FileManager.default.removeItem(atPath: cache + "-fc")
        }
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: cache))
        let faces = registry.index.faces
        let largest = faces.max { $0.coverage.memoryBytes < $1.coverage.memoryBytes }
        let memory = Memory(
            faces: faces.count, totalBytes: faces.reduce(0) { $0 + $1.coverage.memoryBytes },
            largest: (largest?.postscriptName ?? "-", largest?.coverage.memoryBytes ?? 0))
        let peer = FontconfigPeer(directories: directories, cacheDirectory: cache + "-fc")
        let client = try socket.map { try RegistryClient(socketPath: $0) }
        let resolver = TextResolver(resolver: registry.resolver)
        var rows: [Row] = []
        for (label, text) in texts {
            let query = TextQuery(families: [family], style: ResolveQuery(family: ""))
            let points = text.unicodeScalars.count
            let answer = try resolver.resolve(text, query)
            let local = try perCall(minimumSeconds) { _ = try resolver.resolve(text, query) }
            let plans = FallbackPlanCache()
            let kept = try perCall(minimumSeconds) { _ = try resolver.resolve(text, query, cache: plans) }
            let remote = try client.map { client in
                try perCall(minimumSeconds) { _ = try client.resolveText(text, query) }
            }
            let full = try client.map { client in
                try perCall(minimumSeconds) { _ = try client.resolveText(text, query, compact: false) }
            }
            let fontconfig = perCall(minimumSeconds) { _ = peer.sortAndWalk(text, family: family) }
            rows.append(
                Row(
                    label: label, bytes: text.utf8.count, codePoints: points, runs: answer.runs.count,
                    inProcessNanoseconds: local / Double(points), keptPlansNanoseconds: kept / Double(points),
                    socketNanoseconds: remote.map { $0 / Double(points) },
                    fullSocketNanoseconds: full.map { $0 / Double(points) },
                    fontconfigNanoseconds: fontconfig / Double(points), pango: pango[label]))
        }
        return (memory, rows)
    }

    /// Resolves `text` once, then `calls` times with plans kept (or, when `afresh`, a new plan per
    /// call, as the "plans afresh" column of the table); only the calls run inside
    /// ``callLoop(_:_:_:_:)``, which callgrind's `--toggle-collect` names.
    ///
    /// - Returns: the text's code points (instructions per code point = callgrind's total ÷ calls ÷ this).
    static func measuredCalls(
        directories: [String], text: String, family: String, calls: Int, cacheDirectory: String, afresh: Bool = false
    ) throws -> Int {
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: cacheDirectory))
        let resolver = TextResolver(resolver: registry.resolver)
        let query = TextQuery(families: [family], style: ResolveQuery(family: ""))
        let plans = FallbackPlanCache()
        _ = try resolver.resolve(text, query, cache: afresh ? nil : plans)
        try callLoop(resolver, text, query, afresh ? nil : plans, calls)
        return text.unicodeScalars.count
    }

    /// The measured calls (not inlined, so callgrind can collect inside it only); `plans` `nil`: afresh.
    @inline(never)
    static func callLoop(
        _ resolver: TextResolver, _ text: String, _ query: TextQuery, _ plans: FallbackPlanCache?, _ calls: Int
    ) throws {
        for _ in 0..<calls { _ = try resolver.resolve(text, query, cache: plans) }
    }

    /// Resolves `text` once over the daemon's socket, then `calls` times inside
    /// ``socketCallLoop(_:_:_:_:)`` (which callgrind's `--toggle-collect` names).
    ///
    /// - Returns: the runs of the answer.
    static func socketCalls(socket: String, text: String, family: String, calls: Int) throws -> Int {
        let client = try RegistryClient(socketPath: socket)
        let query = TextQuery(families: [family], style: ResolveQuery(family: ""))
        let runs = try client.resolveText(text, query).runs.count
        try socketCallLoop(client, text, query, calls)
        return runs
    }

    /// The measured calls over the socket (not inlined, so callgrind can collect inside it only).
    @inline(never)
    static func socketCallLoop(_ client: RegistryClient, _ text: String, _ query: TextQuery, _ calls: Int) throws {
        for _ in 0..<calls { _ = try client.resolveText(text, query) }
    }

    /// Nanoseconds per call of `work`, repeated for at least `seconds`.
    static func perCall(_ seconds: Double, _ work: () throws -> Void) rethrows -> Double {
        try work()
        var calls = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed: UInt64 = 0
        repeat {
            try work()
            calls += 1
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while Double(elapsed) < seconds * 1e9
        return Double(elapsed) / Double(calls)
    }

    /// The Markdown table.
    static func table(_ memory: Memory, _ rows: [Row]) -> String {
        var lines = [
            "| text | UTF-8 bytes | code points | runs | fontreg in process, plans afresh | fontreg in process, plans kept | "
                + "fontreg over the socket, compact reply | fontreg over the socket, full reply | "
                + "Pango itemize (items) | fontconfig FcFontSort + charset walk | Pango ÷ fontreg kept | "
                + "socket compact ÷ in process kept | socket compact ÷ in process afresh |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        func ns(_ value: Double?) -> String { value.map { String(format: "%.1f ns", $0) } ?? "-" }
        for row in rows {
            let pango = row.pango.map { String(format: "%.1f ns (%d)", $0.nanoseconds, $0.items) } ?? "-"
            let pangoRatio = row.pango.map { String(format: "%.2f×", $0.nanoseconds / row.keptPlansNanoseconds) } ?? "-"
            // Like with like: the daemon keeps its plans (a `FallbackPlanCache` per view), so its own
            // work is the "kept" column; the ratio to "afresh" is kept for the earlier tables.
            let keptRatio =
                row.socketNanoseconds.map { String(format: "%.2f×", $0 / row.keptPlansNanoseconds) } ?? "-"
            let socketRatio =
                row.socketNanoseconds.map { String(format: "%.2f×", $0 / row.inProcessNanoseconds) } ?? "-"
            lines.append(
                "| \(row.label) | \(row.bytes) | \(row.codePoints) | \(row.runs) | \(ns(row.inProcessNanoseconds)) | "
                    + "\(ns(row.keptPlansNanoseconds)) | \(ns(row.socketNanoseconds)) | \(ns(row.fullSocketNanoseconds)) | "
                    + "\(pango) | \(ns(row.fontconfigNanoseconds)) | \(pangoRatio) | \(keptRatio) | \(socketRatio) |")
        }
        lines.append("")
        lines.append(
            "Coverage memory: \(memory.faces) faces, \(memory.totalBytes / 1024) KiB in all, "
                + "\(memory.totalBytes / max(1, memory.faces)) bytes per face on average; the largest, "
                + "\(memory.largest.name), \(memory.largest.bytes / 1024) KiB.")
        return lines.joined(separator: "\n")
    }
}

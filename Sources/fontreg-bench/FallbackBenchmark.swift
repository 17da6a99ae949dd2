import FontRegCore
import FontRegProtocol
import Foundation

/// Text resolution by coverage (issue 12): time per code point in process, over the socket, and
/// fontconfig's `FcFontSort` + charset walk on the same text, in the same run.
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
        var socketNanoseconds: Double?
        var fontconfigNanoseconds: Double
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
        minimumSeconds: Double
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
            let remote = try client.map { client in
                try perCall(minimumSeconds) { _ = try client.resolveText(text, query) }
            }
            let fontconfig = perCall(minimumSeconds) { _ = peer.sortAndWalk(text, family: family) }
            rows.append(
                Row(
                    label: label, bytes: text.utf8.count, codePoints: points, runs: answer.runs.count,
                    inProcessNanoseconds: local / Double(points), socketNanoseconds: remote.map { $0 / Double(points) },
                    fontconfigNanoseconds: fontconfig / Double(points)))
        }
        return (memory, rows)
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
            "| text | UTF-8 bytes | code points | runs | fontreg in process / code point | fontreg over the socket / code point | fontconfig FcFontSort + charset walk / code point | fontconfig ÷ fontreg in process |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let socket = row.socketNanoseconds.map { String(format: "%.1f ns", $0) } ?? "-"
            lines.append(
                "| \(row.label) | \(row.bytes) | \(row.codePoints) | \(row.runs) | "
                    + String(
                        format: "%.1f ns | %@ | %.1f ns | %.1f× |", row.inProcessNanoseconds, socket,
                        row.fontconfigNanoseconds, row.fontconfigNanoseconds / row.inProcessNanoseconds))
        }
        lines.append("")
        lines.append(
            "Coverage memory: \(memory.faces) faces, \(memory.totalBytes / 1024) KiB in all, "
                + "\(memory.totalBytes / max(1, memory.faces)) bytes per face on average; the largest, "
                + "\(memory.largest.name), \(memory.largest.bytes / 1024) KiB.")
        return lines.joined(separator: "\n")
    }
}

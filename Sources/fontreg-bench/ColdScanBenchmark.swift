import FontRegCore
import Foundation

/// The cold scan three ways: FreeType in process, FreeType in sandboxed workers, fontconfig uncached.
///
/// Run through `scripts/bench-sandbox.sh` (issue 15): what moving font parsing into seccomp-confined
/// worker processes costs a start with no face cache, against fontconfig's own uncached scan.
enum ColdScanBenchmark {
    /// One corpus's figures (each the median of ``rounds`` runs, seconds).
    struct Result {
        var label: String
        var faces: Int
        var sandboxedFaces: Int
        var inProcess: Double
        var sandboxed: Double
        var fontconfigUncached: Double
    }

    /// How many times each scan runs; the median is reported.
    static let rounds = 3

    /// Measures one corpus; the workers are the `fontregd` built beside this benchmark.
    static func run(label: String, directories: [String]) throws -> Result {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("fontregd").path
        var inProcess: [Double] = [], sandboxed: [Double] = [], fontconfig: [Double] = []
        var faces = 0, sandboxedFaces = 0
        for _ in 0..<rounds {
            let scratch = NSTemporaryDirectory() + "fontreg-cold-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            var configuration = RegistryConfiguration(fontDirectories: directories, cacheDirectory: scratch + "/a")
            inProcess.append(
                try CoreBenchmark.seconds { faces = try FontRegistry(configuration: configuration).index.faces.count })
            configuration.cacheDirectory = scratch + "/b"
            configuration.parsing = .sandboxed(SandboxedParsing(executable: executable))
            sandboxed.append(
                try CoreBenchmark.seconds {
                    sandboxedFaces = try FontRegistry(configuration: configuration).index.faces.count
                })
            fontconfig.append(
                CoreBenchmark.seconds { _ = FontconfigPeer(directories: directories, cacheDirectory: scratch + "/fc") })
        }
        return Result(
            label: label, faces: faces, sandboxedFaces: sandboxedFaces, inProcess: CoreBenchmark.median(inProcess),
            sandboxed: CoreBenchmark.median(sandboxed), fontconfigUncached: CoreBenchmark.median(fontconfig))
    }

    /// The figures as a Markdown table row (see ``tableHeader``).
    static func row(_ r: Result) -> String {
        func ms(_ s: Double) -> String { String(format: "%.0f ms", s * 1000) }
        return
            "| \(r.label) | \(r.faces) | \(ms(r.inProcess)) | \(ms(r.sandboxed)) | \(String(format: "%+.0f%%", (r.sandboxed / r.inProcess - 1) * 100)) | \(ms(r.fontconfigUncached)) | \(String(format: "%.2f×", r.sandboxed / r.fontconfigUncached)) |"
    }

    /// The table's header.
    static let tableHeader = """
        | corpus | faces | cold scan, FreeType in process | cold scan, sandboxed workers (2) | sandbox cost | fontconfig uncached scan | sandboxed ÷ fontconfig |
        |---|---|---|---|---|---|---|
        """
}

import FontRegCore
import FontRegProtocol
import Foundation

/// Registry-wide fallback for characters no face covers (issue 13 follow-up): the cost of one
/// `ResolveText` call whose text the stack does not cover and no registered face does either, so
/// that every character reaches the last step of the search, in process and over the socket.
///
/// Each call plans afresh, as a hostile caller would make it: in process without a plan cache,
/// over the socket with a weight of its own (1…999, more queries than the daemon keeps plans for).
/// Run through `scripts/bench-fallback.sh --uncovered`.
enum FallbackUncoveredBenchmark {
    /// One corpus and text's figures.
    struct Row {
        var label: String
        var faces: Int
        var families: Int
        var text: String
        var codePoints: Int
        var missing: Int
        var inProcessNanoseconds: Double
        var socketNanoseconds: Double?
    }

    /// The texts: private-use code points (never in a corpus) and cuneiform (absent from the corpora).
    static let texts: [(label: String, text: String)] = [
        ("16 private-use", String(String.UnicodeScalarView((0xE000..<0xE010).compactMap(Unicode.Scalar.init)))),
        ("16 cuneiform", String(String.UnicodeScalarView((0x12000..<0x12010).compactMap(Unicode.Scalar.init)))),
        (
            "1,024 distinct private-use (4 KiB)",
            String(String.UnicodeScalarView((0xF0000..<0xF0400).compactMap(Unicode.Scalar.init)))
        ),
    ]

    /// Measures every text over one corpus.
    ///
    /// - Parameters:
    ///   - label: the corpus's name in the table.
    ///   - directories: its font directories.
    ///   - socket: a daemon serving the same directories, or `nil`.
    ///   - cache: the face cache directory (kept between runs so a large corpus is scanned once).
    ///   - minimumSeconds: how long each measurement repeats.
    static func run(label: String, directories: [String], socket: String?, cache: String, minimumSeconds: Double)
        throws -> [Row]
    {
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: directories, cacheDirectory: cache))
        let index = registry.index
        let family = index.families.first?.name ?? "sans-serif"
        let resolver = TextResolver(resolver: registry.resolver)
        let client = try socket.map { try RegistryClient(socketPath: $0) }
        var rows: [Row] = []
        for (name, text) in texts {
            let query = TextQuery(families: [family], style: ResolveQuery(family: ""))
            let start = DispatchTime.now().uptimeNanoseconds
            let answer = try resolver.resolve(text, query)
            let once = Double(DispatchTime.now().uptimeNanoseconds - start)
            // A call of seconds is measured once, and over the socket not at all (the client gives
            // up after 30 s): the figure says enough.
            let slow = once > 2e9
            let local =
                slow ? once : try FallbackBenchmark.perCall(minimumSeconds) { _ = try resolver.resolve(text, query) }
            var weight = 0
            let remote = try client.flatMap { client -> Double? in
                guard !slow else { return nil }
                return try FallbackBenchmark.perCall(minimumSeconds) {
                    weight = weight % 999 + 1
                    let asked = TextQuery(
                        families: [family], style: ResolveQuery(family: "", weight: FontWeight(weight) ?? .regular))
                    _ = try client.resolveText(text, asked)
                }
            }
            rows.append(
                Row(
                    label: label, faces: index.faces.count, families: index.families.count, text: name,
                    codePoints: text.unicodeScalars.count, missing: answer.missing.count,
                    inProcessNanoseconds: local, socketNanoseconds: remote))
            FileHandle.standardError.write(Data("done: \(label) \(name)\n".utf8))
        }
        return rows
    }

    /// The Markdown table's header.
    static let tableHeader = """
        | corpus | faces | families | text | code points | missing | in process / call | over the socket / call |
        |---|---:|---:|---|---:|---:|---:|---:|
        """

    /// One table row.
    static func line(_ row: Row) -> String {
        func time(_ nanoseconds: Double) -> String {
            nanoseconds >= 1e6
                ? String(format: "%.1f ms", nanoseconds / 1e6) : String(format: "%.1f µs", nanoseconds / 1e3)
        }
        return "| \(row.label) | \(row.faces) | \(row.families) | \(row.text) | \(row.codePoints) | \(row.missing) | "
            + "\(time(row.inProcessNanoseconds)) | \(row.socketNanoseconds.map(time) ?? "not measured (over 2 s)") |"
    }
}

import FontRegCore
import FontRegJSON
import Foundation

// fontreg-bench [--json] [--queries-dir DIR] LABEL=DIR[,DIR…] …
// Prints the core benchmark as one Markdown table, or with --json one JSON object per corpus
// (scripts/bench-all.sh reads those). --queries-dir writes each corpus's queries to DIR/LABEL.tsv.
var json = false
var queriesDirectory: String?
var arguments = Array(CommandLine.arguments.dropFirst())
var rows: [String] = []
let seconds = ProcessInfo.processInfo.environment["FONTREG_BENCH_SECONDS"].flatMap(Double.init) ?? 1.0
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument == "--json" { json = true; continue }
    if argument == "--queries-dir", !arguments.isEmpty { queriesDirectory = arguments.removeFirst(); continue }
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else {
        FileHandle.standardError.write(
            Data("usage: fontreg-bench [--json] [--queries-dir DIR] LABEL=DIR[,DIR…] …\n".utf8))
        exit(64)
    }
    let result = try CoreBenchmark.run(
        label: parts[0], directories: parts[1].split(separator: ",").map(String.init), minimumSeconds: seconds,
        queriesFile: queriesDirectory.map { "\($0)/\(parts[0]).tsv" })
    if json {
        print(try JSONValue(encoding: result).description)
        fflush(nil)
    } else {
        rows.append(CoreBenchmark.row(result))
    }
    FileHandle.standardError.write(Data("done: \(parts[0])\n".utf8))
}
if !json {
    print(CoreBenchmark.tableHeader)
    rows.forEach { print($0) }
}

import FontRegCore
import FontRegJSON
import Foundation

// fontreg-bench [--json] [--queries-dir DIR] LABEL=DIR[,DIR…] …
// fontreg-bench --snapshot LABEL=DIR[,DIR…] …
// Prints the core benchmark as one Markdown table, or with --json one JSON object per corpus
// (scripts/bench-all.sh reads those). --queries-dir writes each corpus's queries to DIR/LABEL.tsv.
// --snapshot measures resolve through the mapped snapshot against resolve in memory instead.
// --cold-scan measures the cold scan in process, in sandboxed workers and by fontconfig (issue 15).
var json = false
var snapshot = false
var coldScan = false
var queriesDirectory: String?
var arguments = Array(CommandLine.arguments.dropFirst())
var rows: [String] = []
let seconds = ProcessInfo.processInfo.environment["FONTREG_BENCH_SECONDS"].flatMap(Double.init) ?? 1.0
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument == "--json" { json = true; continue }
    if argument == "--snapshot" { snapshot = true; continue }
    if argument == "--cold-scan" { coldScan = true; continue }
    if argument == "--queries-dir", !arguments.isEmpty { queriesDirectory = arguments.removeFirst(); continue }
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else {
        FileHandle.standardError.write(
            Data("usage: fontreg-bench [--json] [--queries-dir DIR] LABEL=DIR[,DIR…] …\n".utf8))
        exit(64)
    }
    if coldScan {
        let result = try ColdScanBenchmark.run(
            label: parts[0], directories: parts[1].split(separator: ",").map(String.init))
        rows.append(ColdScanBenchmark.row(result))
        FileHandle.standardError.write(Data("done: \(parts[0])\n".utf8))
        continue
    }
    if snapshot {
        let result = try SnapshotBenchmark.run(
            label: parts[0], directories: parts[1].split(separator: ",").map(String.init), minimumSeconds: seconds)
        rows.append(SnapshotBenchmark.row(result))
        FileHandle.standardError.write(Data("done: \(parts[0])\n".utf8))
        continue
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
    print(
        coldScan ? ColdScanBenchmark.tableHeader : snapshot ? SnapshotBenchmark.tableHeader : CoreBenchmark.tableHeader)
    rows.forEach { print($0) }
}

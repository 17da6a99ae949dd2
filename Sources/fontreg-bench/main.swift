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
if arguments.first == "--fallback" {
    // fontreg-bench --fallback DIR[,DIR…] TEXTS-DIR [SOCKET] (issue 12; scripts/bench-fallback.sh).
    guard arguments.count >= 3 else {
        FileHandle.standardError.write(Data("usage: fontreg-bench --fallback DIR[,DIR…] TEXTS-DIR [SOCKET]\n".utf8))
        exit(64)
    }
    let textsDirectory = arguments[2]
    let names = try FileManager.default.contentsOfDirectory(atPath: textsDirectory).filter { $0.hasSuffix(".txt") }
        .sorted()
    var texts: [(label: String, text: String)] = []
    for name in names {
        let sample = try String(contentsOfFile: textsDirectory + "/" + name, encoding: .utf8)
        var text = sample
        while text.utf8.count < 4096 { text += sample }
        texts.append((String(name.dropLast(4)), text))
    }
    // Pango's figures, measured by scripts/bench-fallback.sh just before: "FILE CODE-POINTS ITEMS NS" lines.
    var pango: [String: (nanoseconds: Double, items: Int)] = [:]
    if let path = ProcessInfo.processInfo.environment["FONTREG_PANGO_FIGURES"] {
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let items = Int(fields[2]), let nanoseconds = Double(fields[3]) else { continue }
            pango[String(fields[0].dropLast(4))] = (nanoseconds, items)
        }
    }
    let (memory, rows) = try FallbackBenchmark.run(
        directories: arguments[1].split(separator: ",").map(String.init), texts: texts, family: "Lato",
        socket: arguments.count > 3 ? arguments[3] : nil, minimumSeconds: seconds, pango: pango)
    print(FallbackBenchmark.table(memory, rows))
    exit(0)
}
if arguments.first == "--fallback-calls" {
    // fontreg-bench --fallback-calls DIR[,DIR…] TEXT-FILE CALLS CACHE-DIR [afresh] (issue 29 item 4): one
    // warm-up call, then CALLS calls of `ResolveText` in process with plans kept (with `afresh`, a new
    // plan per call: issue 26 item 5), in `FallbackBenchmark.measuredCalls`, for
    // `valgrind --tool=callgrind --toggle-collect=…` (instructions).
    guard arguments.count == 5 || (arguments.count == 6 && arguments[5] == "afresh"), let calls = Int(arguments[3])
    else {
        FileHandle.standardError.write(
            Data("usage: fontreg-bench --fallback-calls DIR[,DIR…] TEXT-FILE CALLS CACHE-DIR [afresh]\n".utf8))
        exit(64)
    }
    let sample = try String(contentsOfFile: arguments[2], encoding: .utf8)
    var text = sample
    while text.utf8.count < 4096 { text += sample }
    let points = try FallbackBenchmark.measuredCalls(
        directories: arguments[1].split(separator: ",").map(String.init), text: text, family: "Lato", calls: calls,
        cacheDirectory: arguments[4], afresh: arguments.count == 6)
    print("\(points) code points, \(calls) calls")
    exit(0)
}
if arguments.first == "--fallback-socket-calls" {
    // fontreg-bench --fallback-socket-calls SOCKET TEXT-FILE CALLS (issue 29 item 4): one warm-up call,
    // then CALLS calls of `ResolveText` over the socket (the compact reply, as `fontresolve` asks), in
    // `FallbackBenchmark.socketCallLoop`, for callgrind on the client (and on the daemon beside it).
    guard arguments.count == 4, let calls = Int(arguments[3]) else {
        FileHandle.standardError.write(
            Data("usage: fontreg-bench --fallback-socket-calls SOCKET TEXT-FILE CALLS\n".utf8))
        exit(64)
    }
    let sample = try String(contentsOfFile: arguments[2], encoding: .utf8)
    var text = sample
    while text.utf8.count < 4096 { text += sample }
    let runs = try FallbackBenchmark.socketCalls(socket: arguments[1], text: text, family: "Lato", calls: calls)
    print("\(text.unicodeScalars.count) code points, \(runs) runs, \(calls) calls")
    exit(0)
}
if arguments.first == "--fallback-uncovered" {
    // fontreg-bench --fallback-uncovered LABEL=DIR[,DIR…][@SOCKET] … (issue 13 follow-up;
    // scripts/bench-fallback.sh --uncovered). Face caches are kept in /tmp/fontreg-bench-uncovered-LABEL.
    print(FallbackUncoveredBenchmark.tableHeader)
    for argument in arguments.dropFirst() {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            FileHandle.standardError.write(
                Data("usage: fontreg-bench --fallback-uncovered LABEL=DIR[,DIR…][@SOCKET] …\n".utf8))
            exit(64)
        }
        let target = parts[1].split(separator: "@", maxSplits: 1).map(String.init)
        let rows = try FallbackUncoveredBenchmark.run(
            label: parts[0], directories: target[0].split(separator: ",").map(String.init),
            socket: target.count > 1 ? target[1] : nil, cache: "/tmp/fontreg-bench-uncovered-\(parts[0])",
            minimumSeconds: seconds)
        rows.forEach { print(FallbackUncoveredBenchmark.line($0)) }
        fflush(nil)
    }
    exit(0)
}
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

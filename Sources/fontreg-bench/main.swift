import FontReg
import Foundation

// fontreg-bench LABEL=DIR[,DIR…] …  — prints one Markdown table of the core benchmark.
var rows: [String] = []
for argument in CommandLine.arguments.dropFirst() {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else {
        FileHandle.standardError.write(Data("usage: fontreg-bench LABEL=DIR[,DIR…] …\n".utf8))
        exit(64)
    }
    let seconds = ProcessInfo.processInfo.environment["FONTREG_BENCH_SECONDS"].flatMap(Double.init) ?? 1.0
    let result = try CoreBenchmark.run(label: parts[0], directories: parts[1].split(separator: ",").map(String.init), minimumSeconds: seconds)
    rows.append(CoreBenchmark.row(result))
    FileHandle.standardError.write(Data("done: \(parts[0])\n".utf8))
}
print(CoreBenchmark.tableHeader)
rows.forEach { print($0) }

// fontreg-bench: measures fontregd against a bare Unix-socket round trip and fc-match.
// Usage: fontreg-bench --socket PATH [--family NAME] [--calls N] [--connections N] [--seconds S]
// scripts/bench-daemon.sh starts a daemon and runs this; see docs/benchmarks.md.
import FontReg
import Foundation
import Glibc

struct Options {
    var socket = ""
    var family = "Lato"
    var calls = 20000
    var connections = 4
    var seconds = 3.0
    var pipeline = 64
    var batch = 100
    var fcMatchRuns = 100
}

var options = Options()
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    guard !arguments.isEmpty else { FileHandle.standardError.write(Data("missing value for \(flag)\n".utf8)); exit(64) }
    let value = arguments.removeFirst()
    switch flag {
    case "--socket": options.socket = value
    case "--family": options.family = value
    case "--calls": options.calls = Int(value) ?? options.calls
    case "--connections": options.connections = Int(value) ?? options.connections
    case "--seconds": options.seconds = Double(value) ?? options.seconds
    case "--pipeline": options.pipeline = Int(value) ?? options.pipeline
    case "--batch": options.batch = Int(value) ?? options.batch
    case "--fc-match-runs": options.fcMatchRuns = Int(value) ?? options.fcMatchRuns
    default: FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8)); exit(64)
    }
}
guard !options.socket.isEmpty else {
    FileHandle.standardError.write(Data("usage: fontreg-bench --socket PATH [--family NAME] [--calls N] [--connections N] [--seconds S]\n".utf8))
    exit(64)
}

@Sendable func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func report(_ name: String, _ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    let p50 = percentile(sorted, 0.5) * 1e6, p99 = percentile(sorted, 0.99) * 1e6
    print("\(name): p50 \(String(format: "%.1f", p50)) µs, p99 \(String(format: "%.1f", p99)) µs (\(samples.count) round trips)")
    return p50
}

// 1. A bare Unix-socket round trip: a Resolve-sized message to an echo thread and back.
func bareRoundTrip(count: Int, size: Int) -> [Double] {
    var fds: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { fatalError("socketpair") }
    let echo = fds[1]
    let thread = Thread {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(echo, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            var sent = 0
            while sent < n { sent += buffer.withUnsafeBytes { write(echo, $0.baseAddress! + sent, n - sent) } }
        }
    }
    thread.start()
    let message = [UInt8](repeating: 0x61, count: size)
    var reply = [UInt8](repeating: 0, count: 65536)
    var samples: [Double] = []
    for _ in 0..<count {
        let start = now()
        _ = message.withUnsafeBytes { write(fds[0], $0.baseAddress, $0.count) }
        var received = 0
        while received < size {
            received += reply.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        }
        samples.append(now() - start)
    }
    close(fds[0])
    return samples
}

let weights = ["100", "200", "300", "400", "500", "600", "700", "800", "900", "semibold", "bold", "450"]
let benchFamily = options.family
func resolveCall(_ index: Int) -> VarlinkCall {
    VarlinkCall(
        method: "io.fontreg.Registry.Resolve",
        parameters: ["family": .string(benchFamily), "weight": .string(weights[index % weights.count]),
            "italic": .bool(index % 3 == 0)])
}

do {
    let client = try VarlinkClient(socketPath: options.socket)
    let probe = try client.call(resolveCall(0).method, resolveCall(0).parameters)
    let replySize = VarlinkReply(parameters: probe).serialized().count
    let requestSize = resolveCall(0).serialized().count
    print("fontreg-bench: family \(options.family), Resolve request \(requestSize) B, reply \(replySize) B")

    // Bare round trip with the same bytes each way as Resolve (request out, reply back).
    let bare = report("bare Unix-socket round trip (\(replySize) B echo)", bareRoundTrip(count: options.calls, size: replySize))

    // 2. Resolve round trips, one connection, one call at a time.
    var samples: [Double] = []
    samples.reserveCapacity(options.calls)
    for index in 0..<options.calls {
        let call = resolveCall(index)
        let start = now()
        try client.send(call)
        let reply = try client.receive()
        samples.append(now() - start)
        if reply.error != nil { fatalError("Resolve failed: \(reply)") }
    }
    let single = report("Resolve round trip, one connection", samples)
    print(String(format: "ratio Resolve p50 / bare p50: %.2f", single / bare))

    // 3. Throughput: several connections, each keeping `pipeline` calls in flight.
    func throughput(label: String, makeCall: @escaping @Sendable (Int) -> VarlinkCall, resolvesPerCall: Int) throws {
        let total = Atomic(0)
        let deadline = now() + options.seconds
        let group = DispatchGroup()
        let socket = options.socket, pipeline = options.pipeline
        for _ in 0..<options.connections {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                guard let connection = try? VarlinkClient(socketPath: socket) else { return }
                var calls = 0, sent = 0
                var batch: [UInt8] = []
                for _ in 0..<pipeline { batch += makeCall(sent).serialized(); sent += 1 }
                try? connection.sendRaw(batch)
                while now() < deadline {
                    guard let reply = try? connection.receive(), reply.error == nil else { return }
                    calls += 1
                    try? connection.sendRaw(makeCall(sent).serialized())
                    sent += 1
                }
                for _ in 0..<(sent - calls) { _ = try? connection.receive() }
                total.add(calls * resolvesPerCall)
            }
            thread.start()
        }
        group.wait()
        let rate = Double(total.value) / options.seconds
        print("\(label): \(Int(rate)) resolves/s (\(options.connections) connections, \(pipeline) calls in flight each, \(options.seconds) s)")
    }
    let family = options.family
    let batchSize = options.batch
    try throughput(label: "pipelined Resolve", makeCall: { index in
        VarlinkCall(method: "io.fontreg.Registry.Resolve", parameters: ["family": .string(family), "weight": .string(weights[index % weights.count])])
    }, resolvesPerCall: 1)
    try throughput(label: "ResolveMany (\(batchSize) queries per call)", makeCall: { index in
        let queries: [JSONValue] = (0..<batchSize).map { .object(["family": .string(family), "weight": .string(weights[(index + $0) % weights.count])]) }
        return VarlinkCall(method: "io.fontreg.Registry.ResolveMany", parameters: ["queries": .array(queries)])
    }, resolvesPerCall: batchSize)

    // 4. fc-match, one process per query.
    var fcSamples: [Double] = []
    for index in 0..<options.fcMatchRuns {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fc-match")
        process.arguments = ["\(options.family):weight=\([0, 40, 50, 80, 100, 180, 200, 205, 210][index % 9])"]
        process.standardOutput = FileHandle.nullDevice
        let start = now()
        try process.run()
        process.waitUntilExit()
        fcSamples.append(now() - start)
    }
    _ = report("fc-match, one process per query", fcSamples)
} catch {
    FileHandle.standardError.write(Data("fontreg-bench: \(error)\n".utf8))
    exit(1)
}

/// A counter shared by the throughput threads.
final class Atomic: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private var count: Int
    private let lock = NSLock()
    init(_ value: Int) { count = value }
    func add(_ amount: Int) { lock.lock(); count += amount; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import Foundation
import Glibc
import Varlink

// fontregd-bench: measures fontregd against a bare Unix-socket round trip and fc-match.
// Usage: fontregd-bench --socket PATH [--family NAME] [--calls N] [--rounds N] [--connections N] [--seconds S]
// scripts/bench-daemon.sh starts a daemon and runs this; see docs/benchmarks.md.

struct Options {
    var socket = ""
    var family = "Lato"
    var calls = 20000
    var connections = 4
    var seconds = 3.0
    var pipeline = 64
    var batch = 100
    var fcMatchRuns = 100
    var fonts: String?
    var echoSocket: String?
    /// Rounds of interleaved bare / Resolve round trips; each gives its own ratio (issue 13).
    var rounds = 5
    /// The echo server's reply size (set by the parent when it starts one).
    var echoReplySize = 0
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
    case "--fonts": options.fonts = value
    case "--echo-socket": options.echoSocket = value
    case "--echo-reply-size": options.echoReplySize = Int(value) ?? 0
    case "--rounds": options.rounds = max(1, Int(value) ?? options.rounds)
    default: FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8)); exit(64)
    }
}
guard !options.socket.isEmpty || options.echoSocket != nil else {
    FileHandle.standardError.write(
        Data("usage: fontregd-bench --socket PATH [--family NAME] [--calls N] [--connections N] [--seconds S]\n".utf8))
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
    print(
        "\(name): p50 \(String(format: "%.1f", p50)) µs, p99 \(String(format: "%.1f", p99)) µs (\(samples.count) round trips)"
    )
    return p50
}

// 1. A bare Unix-socket round trip between two processes: this program started again as an
// echo server (`--echo-socket PATH`), a message of the reply's size out and back.
func echoServer(path: String, replySize: Int) -> Never {
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (offset, byte) in path.utf8.enumerated() { raw[offset] = byte }
    }
    unlink(path)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    listen(listener, 1)
    print("ready")
    fflush(nil)
    let connection = accept(listener, nil, nil)
    // A peer that frames as Varlink does: a message up to its NUL in, one reply of the daemon's
    // reply size out, so the bare round trip moves the same bytes each way as a Resolve.
    var reply = [UInt8](repeating: 0x61, count: max(1, replySize))
    reply[reply.count - 1] = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
        if n <= 0 { exit(0) }
        guard buffer[n - 1] == 0 else { continue }
        var sent = 0
        while sent < reply.count {
            let written = reply.withUnsafeBytes { write(connection, $0.baseAddress! + sent, reply.count - sent) }
            if written <= 0 { exit(0) }
            sent += written
        }
    }
}

if let path = options.echoSocket { echoServer(path: path, replySize: options.echoReplySize) }

/// One call on a connection with nothing else in flight: `message` written, read until the
/// reply's NUL (as the bare round trip reads); returns its duration and whether the reply starts
/// with `errorPrefix`.
func rawRoundTrip(
    _ fd: Int32, _ message: [UInt8], _ errorPrefix: [UInt8], into rawReply: inout [UInt8]
) -> (Double, Bool) {
    let start = now()
    _ = message.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    var received = 0
    while true {
        let n = rawReply.withUnsafeMutableBytes { read(fd, $0.baseAddress! + received, $0.count - received) }
        if n <= 0 { return (now() - start, true) }
        received += n
        if rawReply[received - 1] == 0 { break }
    }
    let duration = now() - start
    return (duration, rawReply[0..<min(received, errorPrefix.count)].elementsEqual(errorPrefix))
}

/// An echo server process and a connection to it.
final class EchoPeer {
    let process = Process()
    let path = "/tmp/fontregd-bench-echo-\(getpid()).sock"
    let client: VarlinkClient
    private var reply = [UInt8](repeating: 0, count: 65536)

    init(replySize: Int) throws {
        let bench = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = ["--echo-socket", path, "--echo-reply-size", String(replySize)]
        // BENCH_ECHO_CPU pins the echo server to the daemon's core (scripts/bench-daemon.sh with BENCH_PIN).
        if let cpu = ProcessInfo.processInfo.environment["BENCH_ECHO_CPU"], !cpu.isEmpty {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["-c", cpu, bench] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: bench)
            process.arguments = arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        _ = pipe.fileHandleForReading.availableData  // "ready"
        client = try VarlinkClient(socketPath: path)
    }

    /// One round trip: `message` (NUL-terminated) out, the reply-sized answer back; returns its
    /// duration in seconds.
    func roundTrip(_ message: [UInt8]) -> Double {
        let fd = client.fd
        let start = now()
        _ = message.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        while true {
            let n = reply.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 || reply[n - 1] == 0 { break }
        }
        return now() - start
    }

    deinit {
        client.close()
        process.waitUntilExit()
        unlink(path)
    }
}

let weights = ["100", "200", "300", "400", "500", "600", "700", "800", "900", "semibold", "bold", "450"]
let benchFamily = options.family
func resolveCall(_ index: Int) -> VarlinkCall {
    VarlinkCall(
        method: "io.fontreg.Registry.Resolve",
        parameters: [
            "family": .string(benchFamily), "weight": .string(weights[index % weights.count]),
            "italic": .bool(index % 3 == 0),
        ])
}

/// Where one Resolve's time goes, measured in this process: resolver, reply encoding, reply parsing.
func inProcessCosts(fonts: String, count: Int) throws {
    let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [fonts]))
    let queries = (0..<count).map { index in
        ResolveQuery(
            family: benchFamily, weight: FontWeight(parsing: weights[index % weights.count])!, italic: index % 3 == 0)
    }
    var start = now()
    var resolutions: [Resolution] = []
    for query in queries { resolutions.append(try registry.resolve(query)) }
    let resolve = (now() - start) / Double(count)
    start = now()
    var encoded: [[UInt8]] = []
    for resolution in resolutions {
        var message: [UInt8] = []
        VarlinkReply.write(encodedParameters: ResolutionReply(resolution).jsonBytes, to: &message)
        encoded.append(message)
    }
    let encode = (now() - start) / Double(count)
    start = now()
    for bytes in encoded {
        _ = try bytes.dropLast().withUnsafeBufferPointer { (buffer) throws(VarlinkProtocolError) in
            try VarlinkReply(parsing: buffer)
        }
    }
    let parse = (now() - start) / Double(count)
    print(
        String(
            format: "in-process, per Resolve: resolver %.1f µs, reply encoding %.1f µs, reply parsing (client) %.1f µs",
            resolve * 1e6, encode * 1e6, parse * 1e6))
    // The daemon's own work for a cached Resolve: parse the request, check it, look the reply up, frame it.
    let service = RegistryService(
        registry: registry, store: RegistrationStore(directory: "/nonexistent"), persisted: [],
        settings: .init(access: AccessPolicy(), allowedRoots: AllowedRoots([])))
    let requests = (0..<weights.count * 3).map { Array(resolveCall($0).serialized().dropLast()) }
    let peer = PeerCredentials(pid: 0, uid: 0, gid: 0)
    var output: [UInt8] = []
    start = now()
    for index in 0..<count {
        let call = try requests[index % requests.count].withUnsafeBufferPointer {
            (buffer) throws(VarlinkProtocolError) in
            try VarlinkCall(parsing: buffer)
        }
        guard case .replayable(.encodedReply(let bytes), _) = service.handle(call, peer: peer) else {
            fatalError("Resolve failed")
        }
        output.removeAll(keepingCapacity: true)
        VarlinkReply.write(encodedParameters: bytes, to: &output)
    }
    let hit = (now() - start) / Double(count)
    print(
        String(
            format:
                "in-process, daemon work per cached Resolve (parse request, check, cache hit, frame reply): %.1f µs",
            hit * 1e6))
}

do {
    if let fonts = options.fonts { try inProcessCosts(fonts: fonts, count: options.calls) }
    let client = try VarlinkClient(socketPath: options.socket)
    // The reply's size as the daemon sends it (NUL included), for the bare round trip.
    try client.sendRaw(resolveCall(0).serialized())
    let replySize = try client.receiveMessage().count + 1
    let requestSize = resolveCall(0).serialized().count
    print("fontregd-bench: family \(options.family), Resolve request \(requestSize) B, reply \(replySize) B")

    // 1 and 2. The bare round trip (the request's bytes out to an echo process, a message of the
    // reply's size back, both framed by a NUL as Varlink frames them) and Resolve round trips on
    // one connection, one call at a time, alternating call by call so that both see the same load
    // on a shared machine, in `--rounds` rounds: each round gives its own p50 ratio, and the
    // figure is the median of the rounds' ratios. Requests are serialized before timing, as the
    // bare message is, and replies are received but not parsed.
    let requests = (0..<weights.count * 3).map { resolveCall($0).serialized() }
    let echo = try EchoPeer(replySize: replySize)
    let message = [UInt8](repeating: 0x61, count: requestSize - 1) + [0]
    let errorPrefix = Array(#"{"error""#.utf8)
    var allBare: [Double] = [], allResolve: [Double] = [], ratios: [Double] = []
    let perRound = max(1, options.calls / options.rounds)
    var rawReply = [UInt8](repeating: 0, count: 1 << 20)
    // Warm-up: every request once (the daemon's caches), and the echo peer.
    for request in requests {
        try client.sendRaw(request)
        _ = try client.receiveMessage()
        _ = echo.roundTrip(message)
    }
    for round in 1...options.rounds {
        var bareSamples: [Double] = [], resolveSamples: [Double] = []
        bareSamples.reserveCapacity(perRound)
        resolveSamples.reserveCapacity(perRound)
        for index in 0..<perRound {
            bareSamples.append(echo.roundTrip(message))
            // The same write and reads as the bare round trip, on the daemon's connection.
            let (duration, failed) = rawRoundTrip(
                client.fd, requests[index % requests.count], errorPrefix, into: &rawReply)
            resolveSamples.append(duration)
            if failed { fatalError("Resolve failed") }
        }
        let bare = bareSamples.sorted(), resolved = resolveSamples.sorted()
        let ratio = percentile(resolved, 0.5) / percentile(bare, 0.5)
        ratios.append(ratio)
        print(
            String(
                format:
                    "round %d: bare p50 %.1f µs p99 %.1f µs, Resolve p50 %.1f µs p99 %.1f µs, ratio %.2f (%d calls each)",
                round, percentile(bare, 0.5) * 1e6, percentile(bare, 0.99) * 1e6, percentile(resolved, 0.5) * 1e6,
                percentile(resolved, 0.99) * 1e6, ratio, perRound))
        allBare += bareSamples
        allResolve += resolveSamples
    }
    _ = report("bare Unix-socket round trip between two processes (\(requestSize) B out, \(replySize) B back)", allBare)
    _ = report("Resolve round trip, one connection (reply bytes received, not parsed)", allResolve)
    let sortedRatios = ratios.sorted()
    print(
        "ratio Resolve p50 / bare p50: median of \(ratios.count) rounds "
            + String(format: "%.2f", sortedRatios[sortedRatios.count / 2]) + " (rounds: "
            + ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ") + ")")

    // 2b. Layout (issue 27) against Resolve of the same queries, alternating call by call on one
    // connection, in rounds: the docs' bound is that a Layout answer costs no more than a Resolve.
    let layouts = (0..<weights.count * 3).map { index in
        var parameters = resolveCall(index).parameters
        parameters["size"] = .double(16)
        parameters["lineHeight"] = .string("24px")
        return VarlinkCall(method: "io.fontreg.Registry.Layout", parameters: parameters).serialized()
    }
    for request in layouts {
        try client.sendRaw(request)
        _ = try client.receiveMessage()
    }
    var layoutRatios: [Double] = []
    for round in 1...options.rounds {
        var resolveSamples: [Double] = [], layoutSamples: [Double] = []
        for index in 0..<perRound {
            let (resolveTime, resolveFailed) = rawRoundTrip(
                client.fd, requests[index % requests.count], errorPrefix, into: &rawReply)
            let (layoutTime, layoutFailed) = rawRoundTrip(
                client.fd, layouts[index % layouts.count], errorPrefix, into: &rawReply)
            if resolveFailed || layoutFailed { fatalError("Resolve or Layout failed") }
            resolveSamples.append(resolveTime)
            layoutSamples.append(layoutTime)
        }
        let resolved = resolveSamples.sorted(), laidOut = layoutSamples.sorted()
        let ratio = percentile(laidOut, 0.5) / percentile(resolved, 0.5)
        layoutRatios.append(ratio)
        print(
            String(
                format: "layout round %d: Resolve p50 %.1f µs, Layout p50 %.1f µs p99 %.1f µs, ratio %.2f",
                round, percentile(resolved, 0.5) * 1e6, percentile(laidOut, 0.5) * 1e6,
                percentile(laidOut, 0.99) * 1e6, ratio))
    }
    print(
        "ratio Layout p50 / Resolve p50: median of \(layoutRatios.count) rounds "
            + String(format: "%.2f", layoutRatios.sorted()[layoutRatios.count / 2]))

    // 3. Throughput: several connections, each sending `pipeline` calls in one write and then
    // reading their replies. Calls are serialized once up front and replies are counted, not
    // parsed, so that the client is not what is measured.
    func throughput(label: String, makeCall: @escaping @Sendable (Int) -> VarlinkCall, resolvesPerCall: Int) throws {
        let total = Atomic(0)
        let deadline = now() + options.seconds
        let group = DispatchGroup()
        let socket = options.socket, pipeline = options.pipeline
        var window: [UInt8] = []
        for index in 0..<pipeline { window += makeCall(index).serialized() }
        let batch = window
        for _ in 0..<options.connections {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                guard let connection = try? VarlinkClient(socketPath: socket) else { return }
                let errorPrefix = Array(#"{"error""#.utf8)
                var calls = 0
                while now() < deadline {
                    guard (try? connection.sendRaw(batch)) != nil else { return }
                    for _ in 0..<pipeline {
                        guard let reply = try? connection.receiveMessage(), !reply.starts(with: errorPrefix) else {
                            FileHandle.standardError.write(Data("fontregd-bench: a call failed\n".utf8))
                            return
                        }
                    }
                    calls += pipeline
                }
                total.add(calls * resolvesPerCall)
            }
            thread.start()
        }
        group.wait()
        let rate = Double(total.value) / options.seconds
        print(
            "\(label): \(Int(rate)) resolves/s (\(options.connections) connections, \(pipeline) calls per write, \(options.seconds) s)"
        )
    }
    let family = options.family
    let batchSize = options.batch
    try throughput(
        label: "pipelined Resolve",
        makeCall: { index in
            VarlinkCall(
                method: "io.fontreg.Registry.Resolve",
                parameters: ["family": .string(family), "weight": .string(weights[index % weights.count])])
        }, resolvesPerCall: 1)
    try throughput(
        label: "ResolveMany (\(batchSize) queries per call)",
        makeCall: { index in
            let queries: [JSONValue] = (0..<batchSize).map {
                .object(["family": .string(family), "weight": .string(weights[(index + $0) % weights.count])])
            }
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
    if !fcSamples.isEmpty { _ = report("fc-match, one process per query", fcSamples) }
} catch {
    FileHandle.standardError.write(Data("fontregd-bench: \(error)\n".utf8))
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

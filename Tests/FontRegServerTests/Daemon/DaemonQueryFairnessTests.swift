import FontRegTestSupport
import Foundation
import Testing

/// One user's long queries do not hold up another user's (issue 24 item 8): the query worker
/// takes the uids in turn, and one uid never holds more than one of its threads.
@Suite("fontregd schedules query work fairly between users", .serialized)
struct DaemonQueryFairnessTests {
    /// `flood SOCKET CONNECTIONS BYTES`: that many connections each sending `ResolveText` calls of
    /// a text of `BYTES` bytes, one after the other, until standard input closes; prints `flooding`
    /// once every connection has had a reply, then, at the end, the median call time in ms.
    ///
    /// `measure SOCKET COUNT BYTES`: `COUNT` calls of a text of `BYTES` bytes on one connection;
    /// prints the p50 and p99 in ms.
    static let script = """
        import socket, sys, threading, time, json
        mode, path, count, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        unit = "Fontreg fairness: wörld αβγ Привет 你好 "
        text = (unit * (size // len(unit.encode()) + 1)).encode()[:size].decode("utf-8", "ignore")
        message = json.dumps({"method": "io.fontreg.Registry.ResolveText",
            "parameters": {"text": text, "families": ["Avenir Fixture", "sans-serif"]}}).encode() + b"\\0"
        def call(s):
            s.sendall(message)
            data = b""
            while not data.endswith(b"\\0"):
                chunk = s.recv(1 << 20)
                if not chunk:
                    sys.exit("connection closed")
                data += chunk
            if b'"error"' in data[:200]:
                sys.exit("error reply: " + data[:300].decode())
        def connect():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        if mode == "measure":
            s = connect()
            times = []
            for _ in range(count):
                started = time.monotonic()
                call(s)
                times.append((time.monotonic() - started) * 1000)
            times.sort()
            print("%.3f %.3f" % (times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]))
        else:
            stop = threading.Event()
            ready = threading.Barrier(count + 1)
            times = []
            def run():
                s = connect()
                first = True
                while not stop.is_set():
                    started = time.monotonic()
                    call(s)
                    times.append((time.monotonic() - started) * 1000)
                    if first:
                        first = False
                        ready.wait()
            threads = [threading.Thread(target=run, daemon=True) for _ in range(count)]
            for t in threads:
                t.start()
            ready.wait()
            print("flooding", flush=True)
            sys.stdin.read()
            stop.set()
            times.sort()
            print("%.3f" % times[len(times) // 2], flush=True)
        """

    /// Runs the script in `mode` as `uid` (through `setpriv`).
    static func script(_ mode: String, uid: Int, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments =
            ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c", script, mode]
            + arguments
        return process
    }

    /// The victim's p50 and p99 in ms over `count` calls of `bytes` bytes, as uid 65533.
    static func measure(_ daemon: DaemonProcess, count: Int, bytes: Int) throws -> (p50: Double, p99: Double) {
        let process = script("measure", uid: 65533, [daemon.socketPath, String(count), String(bytes)])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = LineReader(output.fileHandleForReading)
        guard let line = reader.nextLine(timeout: 120) else {
            process.terminate()
            throw HarnessError("the victim's measurement gave no figures within 120 s")
        }
        process.waitUntilExit()
        let figures = line.split(separator: " ").compactMap { Double($0) }
        guard figures.count == 2 else { throw HarnessError("the victim printed \(line)") }
        return (figures[0], figures[1])
    }

    @Test(.timeLimit(.minutes(3)))
    func eightConnectionsOfLongTextsFromOneUserKeepAnotherUsersSmallTextNearItsIdleLatency() throws {
        let daemon = try DaemonProcess()
        // 5 KiB: past the 4 KiB answered on the loop, so the victim's calls go to the query worker too.
        let idle = try Self.measure(daemon, count: 40, bytes: 5 * 1024)

        let flood = Self.script("flood", uid: 65534, [daemon.socketPath, "8", "262000"])
        let input = Pipe()
        let output = Pipe()
        flood.standardInput = input
        flood.standardOutput = output
        try flood.run()
        let reader = LineReader(output.fileHandleForReading)
        defer {
            try? input.fileHandleForWriting.close()
            if flood.isRunning { flood.waitUntilExit() }
        }
        guard reader.nextLine(timeout: 120) == "flooding" else {
            throw HarnessError("the flood did not start within 120 s")
        }
        let loaded = try Self.measure(daemon, count: 40, bytes: 5 * 1024)
        try input.fileHandleForWriting.close()
        let floodMedian = reader.nextLine(timeout: 120).flatMap(Double.init) ?? 0
        flood.waitUntilExit()

        let figures =
            "idle p50 \(idle.p50) ms p99 \(idle.p99) ms; under the flood p50 \(loaded.p50) ms p99 \(loaded.p99) ms;"
            + " the flood's calls took \(floodMedian) ms (median)"
        print(figures)
        // With one queue for everyone, each victim call waited behind the eight long calls queued
        // before it: several times the flood's call time. Now it waits behind none of them.
        #expect(loaded.p50 < 10 * idle.p50 + 20, "\(figures)")
        #expect(loaded.p99 < max(10 * idle.p99 + 50, floodMedian), "\(figures)")
        #expect(floodMedian > 0, "the flood made no calls: \(figures)")
    }
}

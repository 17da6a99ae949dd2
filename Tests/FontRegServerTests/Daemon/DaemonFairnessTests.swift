import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import Varlink

/// One local user cannot take the daemon from the others: connection slots per uid, slow senders closed.
@Suite("fontregd shares its connections fairly", .serialized)
struct DaemonFairnessTests {
    static let status = "io.fontreg.Registry.GetStatus"

    /// Opens `count` connections as `uid` (through `setpriv`), makes one GetStatus call on each,
    /// prints one line per connection (`ok` or the error name and its scope), then `holding`, and
    /// keeps them open until its standard input closes.
    static let floodScript = """
        import socket, sys, json
        path, count = sys.argv[1], int(sys.argv[2])
        held = []
        for i in range(count):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            held.append(s)
            try:
                s.sendall(b'{"method":"io.fontreg.Registry.GetStatus"}\\0')
            except OSError:
                pass
            data = b""
            try:
                while not data.endswith(b"\\0"):
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
            reply = json.loads(data.rstrip(b"\\0") or b"{}")
            error = reply.get("error")
            print("ok" if error is None else error + " " + str(reply["parameters"].get("scope")), flush=True)
        print("holding", flush=True)
        sys.stdin.read()
        """

    /// A running flood, with the lines it printed.
    final class Flood {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        var lines: [String] = []

        init(daemon: DaemonProcess, uid: Int, gid: Int? = nil, count: Int) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=\(uid)", "--regid=\(gid ?? uid)", "--clear-groups", "/usr/bin/python3", "-c",
                DaemonFairnessTests.floodScript, daemon.socketPath, String(count),
            ]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let reader = LineReader(output.fileHandleForReading)
            while let line = reader.nextLine(timeout: 20) {
                if line == "holding" { return }
                lines.append(line)
            }
            throw HarnessError("the flood as uid \(uid) ended early after \(lines)")
        }

        /// Closes the flood's connections.
        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    @Test func oneUserHoldingAllItsSlotsLocksOutNeitherAnotherUserNorRoot() throws {
        let daemon = try DaemonProcess(extraArguments: ["--max-connections", "40", "--max-connections-per-uid", "4"])
        let flood = try Flood(daemon: daemon, uid: 65534, count: 7)
        defer { flood.stop() }
        #expect(flood.lines.prefix(4).allSatisfy { $0 == "ok" }, "\(flood.lines)")
        #expect(Array(flood.lines.dropFirst(4)) == ["io.fontreg.Registry.TooManyConnections uid"].repeated(3))
        // Another unprivileged user is served while the first holds its share...
        let other = try Flood(daemon: daemon, uid: 65533, count: 2)
        defer { other.stop() }
        #expect(other.lines == ["ok", "ok"])
        // ...and so is root.
        #expect(try daemon.client().call(Self.status)["faces"] != nil)
        // fontresolve of the locked-out user says why, not "start the daemon".
        let refused = try FontResolveProcess.run(["status", "--socket", daemon.socketPath], asNobody: true)
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("too many connections"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("Start the daemon"), "\(refused.stderr)")
        #expect(daemon.log.contains("max-connections-per-uid"))
    }

    @Test func whenTheTotalIsReachedTheReserveStillServesRoot() throws {
        // 12 slots: 9 are open to everyone, the last 3 (a quarter) only to root and allow-uid users.
        let daemon = try DaemonProcess(extraArguments: ["--max-connections", "12", "--max-connections-per-uid", "5"])
        let first = try Flood(daemon: daemon, uid: 65534, count: 5)
        defer { first.stop() }
        let second = try Flood(daemon: daemon, uid: 65533, count: 5)
        defer { second.stop() }
        #expect(first.lines == ["ok"].repeated(5))
        #expect(second.lines == ["ok", "ok", "ok", "ok", "io.fontreg.Registry.TooManyConnections total"])
        #expect(try daemon.client().call(Self.status)["faces"] != nil)
    }

    @Test func theReserveAlsoServesMembersOfTheAllowGidGroupBeyondThePerUserShare() throws {
        // 12 slots, 3 reserved; gid 65532 may change the registry, so its members are administrators.
        let daemon = try DaemonProcess(extraArguments: [
            "--max-connections", "12", "--max-connections-per-uid", "5", "--allow-gid", "65532",
        ])
        let first = try Flood(daemon: daemon, uid: 65534, count: 5)
        defer { first.stop() }
        let second = try Flood(daemon: daemon, uid: 65533, count: 5)
        defer { second.stop() }
        #expect(second.lines.last == "io.fontreg.Registry.TooManyConnections total")
        // A member of the group (not root, no allow-uid) gets the three reserved slots...
        let admin = try Flood(daemon: daemon, uid: 65531, gid: 65532, count: 4)
        defer { admin.stop() }
        #expect(admin.lines == ["ok", "ok", "ok", "io.fontreg.Registry.TooManyConnections total"])
        // ...which an unprivileged user with another group does not.
        let other = try Flood(daemon: daemon, uid: 65530, gid: 65530, count: 1)
        defer { other.stop() }
        #expect(other.lines == ["io.fontreg.Registry.TooManyConnections total"])
    }

    @Test func aSlowlorisTricklingOneByteAtATimeIsClosedByTheIdleTimeout() throws {
        let daemon = try DaemonProcess(extraArguments: ["--idle-timeout", "1"])
        let client = try daemon.client(timeout: 10)
        let message = Array(#"{"method":"io.fontreg.Registry.GetStatus","parameters":{}}"#.utf8)
        let started = Date()
        var closed = false
        // Never silent for a whole second, so only the bound on one message's time can close it.
        for byte in message.prefix(40) {
            do {
                try client.sendRaw([byte])
            } catch {
                closed = true
                break
            }
            usleep(250_000)
        }
        #expect(closed, "the trickling connection was still open after \(Date().timeIntervalSince(started)) s")
        #expect(Date().timeIntervalSince(started) < 8)
        try waitFor("the daemon to log the trickling client") { daemon.log.contains("sent part of a message") }
        #expect(try daemon.client().call(Self.status)["faces"] != nil)
    }
}

extension Array {
    /// The array repeated `count` times.
    fileprivate func repeated(_ count: Int) -> [Element] {
        Array((0..<count).map { _ in self }.joined())
    }
}

import Foundation
import Glibc

/// An unprivileged local user created by `scripts/setup-deps.sh --test` (issue 15), for running
/// real clients as someone other than root against the real daemon.
package struct TestUser: Sendable {
    /// The login name.
    package let name: String
    /// Its uid.
    package let uid: UInt32
    /// Its primary gid.
    package let gid: UInt32
    /// Its home, from the user database.
    package let home: String

    /// `fontreg-test-a`.
    package static var a: TestUser { get throws { try TestUser(named: "fontreg-test-a") } }
    /// `fontreg-test-b`.
    package static var b: TestUser { get throws { try TestUser(named: "fontreg-test-b") } }

    /// Looks the user up in the user database.
    ///
    /// - Throws: ``HarnessError`` naming the set-up script when the user does not exist.
    package init(named name: String) throws {
        guard let entry = getpwnam(name) else {
            throw HarnessError("the test user \(name) is missing; run scripts/setup-deps.sh --test (as root)")
        }
        self.name = name
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
        home = String(cString: entry.pointee.pw_dir)
    }

    /// The `setpriv` prefix that runs a command as this user.
    package var setpriv: [String] {
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups"]
    }

    /// Makes a fresh directory under `~/.local/share/fonts` owned by the user, with copies of `fonts`
    /// (owned by the user too).
    ///
    /// - Returns: the directory; remove it with ``removeFontDirectory(_:)``.
    package func makeFontDirectory(copying fonts: [String]) throws -> String {
        let directory = home + "/.local/share/fonts/fontreg-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for font in fonts {
            let copy = directory + "/" + (font as NSString).lastPathComponent
            try FileManager.default.copyItem(atPath: font, toPath: copy)
            chown(copy, uid, gid)
        }
        var path = directory
        while path.count > home.count {
            chown(path, uid, gid)
            path = (path as NSString).deletingLastPathComponent
        }
        return directory
    }

    /// Removes a directory made by ``makeFontDirectory(copying:)``.
    package func removeFontDirectory(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `fontresolve` as this user.
    package func fontresolve(_ arguments: [String], socket: String) throws -> FontResolveProcess.Output {
        let result = try runCommand(
            setpriv + [BuildProducts.executable("fontresolve")] + arguments + ["--socket", socket])
        return FontResolveProcess.Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Sends raw Varlink calls as this user on one connection and returns the replies (JSON text).
    package func varlink(_ messages: [String], socket: String) throws -> [String] {
        let result = try runCommand(setpriv + ["/usr/bin/python3", "-c", Self.client, socket] + messages)
        guard result.status == 0 else { throw HarnessError("client as \(name) failed: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Starts a client as this user that sends `message`, prints the reply, then stays connected
    /// until killed (for connection-scoped registrations).
    package func holdingClient(_ message: String, socket: String) throws -> (process: Process, reply: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv[0])
        process.arguments =
            Array(setpriv.dropFirst()) + ["/usr/bin/python3", "-c", Self.client, socket, message, "--hold"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        let handle = out.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte[0] == 0x0A { break }
            line.append(byte[0])
        }
        return (process, String(decoding: line, as: UTF8.self))
    }

    /// Starts a `Monitor` subscriber as this user; each event arrives as one line of JSON.
    ///
    /// - Returns: the client (kill it when done) and a reader of its events.
    package func monitor(socket: String) throws -> (process: Process, events: LineReader) {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(b'{"method":"io.fontreg.Registry.Monitor","more":true}\\0')
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                while b"\\0" in data:
                    reply, data = data.split(b"\\0", 1)
                    sys.stdout.write(reply.decode() + "\\n")
                    sys.stdout.flush()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv[0])
        process.arguments = Array(setpriv.dropFirst()) + ["/usr/bin/python3", "-c", script, socket]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, LineReader(out.fileHandleForReading))
    }

    /// A Varlink client in Python: sends each message, prints each reply on a line; `--hold` last
    /// keeps the connection open until the process is killed.
    static let client = """
        import socket, sys, time
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        hold = sys.argv[-1] == "--hold"
        data = b""
        for message in sys.argv[2:len(sys.argv) - (1 if hold else 0)]:
            s.sendall(message.encode() + b"\\0")
            while b"\\0" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    sys.exit("connection closed")
                data += chunk
            reply, data = data.split(b"\\0", 1)
            sys.stdout.write(reply.decode() + "\\n")
            sys.stdout.flush()
        while hold:
            time.sleep(60)
        """
}

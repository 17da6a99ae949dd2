import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol
@testable import FontRegServer
@testable import FontRegSystem
@testable import Varlink

/// Who may change the registry, against the real daemon: the kernel's peer credentials and the socket.
///
/// The decisions by uid, gid and path are tested in memory (`RegistryChangePermissionTests`).
@Suite("fontregd refuses what it must", .serialized)
struct DaemonSecurityTests {
    /// Sends one raw call as uid/gid 65534 (`nobody`) through `setpriv`, and returns the reply.
    func callAsNobody(_ daemon: DaemonProcess, _ call: VarlinkCall) throws -> VarlinkReply {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(sys.argv[2].encode() + b"\\0")
            data = b""
            while not data.endswith(b"\\0"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            sys.stdout.write(data.rstrip(b"\\0").decode())
            """
        let message = String(decoding: call.serialized().dropLast(), as: UTF8.self)
        let result = try runCommand([
            "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script,
            daemon.socketPath, message,
        ])
        guard result.status == 0 else { throw HarnessError("client as nobody failed: \(result.stderr)") }
        return try Array(result.stdout.utf8).withUnsafeBufferPointer { (buffer) throws(VarlinkProtocolError) in
            try VarlinkReply(parsing: buffer)
        }
    }

    @Test func nobodyMayQueryButNotRegisterUnregisterOrRescan() throws {
        let daemon = try DaemonProcess(extraArguments: ["--allow-root", BuildProducts.realFonts])
        let query = try callAsNobody(
            daemon, VarlinkCall(method: "io.fontreg.Registry.Resolve", parameters: ["family": "Fixture Sans"]))
        #expect(query.error == nil)
        #expect(query.parameters["postscriptName"] == "FixtureSans-Regular")
        let calls = [
            VarlinkCall(
                method: "io.fontreg.Registry.Register",
                parameters: ["paths": [.string(BuildProducts.realFonts + "/Lato")]]),
            VarlinkCall(
                method: "io.fontreg.Registry.Unregister", parameters: ["paths": [.string(BuildProducts.fixtureFonts)]]),
            VarlinkCall(method: "io.fontreg.Registry.Rescan"),
        ]
        for call in calls {
            let reply = try callAsNobody(daemon, call)
            #expect(reply.error == "io.fontreg.Registry.PermissionDenied", "\(call.method)")
            #expect(reply.parameters["uid"] == 65534)
        }
        #expect(try daemon.client().call("io.fontreg.Registry.GetStatus")["generation"] == 1)
    }

    @Test func socketIsCreatedWorldWritableForQueriesAndAStaleOneIsReplaced() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("fontregd.sock")
        // A socket file nobody listens on, as a crashed run leaves it.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (offset, byte) in path.utf8.enumerated() { raw[offset] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path))
        let daemon = try DaemonProcess(directory: directory)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o666)
        #expect(try daemon.client().call("io.fontreg.Registry.GetStatus")["faces"] != nil)
    }

    @Test func aLiveSocketIsNotStolenByASecondDaemon() throws {
        let directory = TemporaryDirectory()
        let first = try DaemonProcess(directory: directory)
        let second = try DaemonProcess(directory: directory, waitUntilServing: false)
        #expect(try second.waitForExit() == 69)
        #expect(second.log.contains("another process is listening"))
        #expect(try first.client().call("io.fontreg.Registry.GetStatus")["faces"] != nil)
    }

    @Test func aPathThatIsNotASocketIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("fontregd.sock")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let daemon = try DaemonProcess(directory: directory, waitUntilServing: false)
        #expect(try daemon.waitForExit() == 69)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }
}

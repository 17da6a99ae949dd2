import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol
@testable import Varlink

/// `OpenFace` (issue 15) against the real daemon: the descriptor passed over the socket reads the
/// face's file, and only a caller that could open the file itself gets one.
@Suite("fontregd OpenFace", .serialized)
struct DaemonOpenFaceTests {
    /// A daemon over a public directory, a 0700 one, and a file changed after indexing.
    final class Fixture: @unchecked Sendable {
        // @unchecked: set once in init and only read afterwards.
        let directory = TemporaryDirectory()
        let daemon: DaemonProcess
        let publicFont: String
        let secretFont: String
        let changedFont: String

        init() throws {
            let lato = BuildProducts.realFonts + "/Lato"
            for (folder, mode) in [("public", 0o755), ("secret", 0o700), ("changing", 0o755)] {
                try FileManager.default.createDirectory(
                    atPath: directory.file(folder), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: mode])
            }
            publicFont = directory.file("public/Lato-Regular.ttf")
            secretFont = directory.file("secret/Lato-Bold.ttf")
            changedFont = directory.file("changing/Lato-Italic.ttf")
            try FileManager.default.copyItem(atPath: lato + "/Lato-Regular.ttf", toPath: publicFont)
            try FileManager.default.copyItem(atPath: lato + "/Lato-Bold.ttf", toPath: secretFont)
            try FileManager.default.copyItem(atPath: lato + "/Lato-Italic.ttf", toPath: changedFont)
            for file in [publicFont, secretFont, changedFont] { chmod(file, 0o644) }
            daemon = try DaemonProcess(
                directory: directory,
                fonts: [directory.file("public"), directory.file("secret"), directory.file("changing")],
                extraArguments: ["--watch", "no"])
            // Changed after it was indexed (no rescan): another file's bytes under the same name.
            let other = try Data(contentsOf: URL(fileURLWithPath: lato + "/Lato-Light.ttf"))
            try other.write(to: URL(fileURLWithPath: changedFont + ".new"))
            rename(changedFont + ".new", changedFont)
        }
    }

    @Test func theDescriptorReadsTheSameBytesAsTheFaceFile() throws {
        let fixture = try Fixture()
        let client = try RegistryClient(socketPath: fixture.daemon.socketPath)
        let opened = try client.openFace(postscriptName: "Lato-Regular")
        let bytes = try #require(try opened.file.readToEnd())
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: fixture.publicFont))))
        #expect(opened.size == bytes.count && opened.faceIndex == 0 && opened.face.file == fixture.publicFont)
        // The descriptor is read-only and close-on-exec.
        let flags = fcntl(opened.file.fileDescriptor, F_GETFL)
        #expect(flags & O_ACCMODE == O_RDONLY)
        #expect(fcntl(opened.file.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0)
    }

    /// Issue 13: the reply of an `OpenFace` after two other calls on the same connection arrives
    /// (the daemon's output queue held an emptied buffer in front of it: the reply never left and
    /// the loop spun).
    @Test func openFaceAfterTwoCallsOnOneConnectionGetsItsDescriptor() throws {
        let fixture = try Fixture()
        let client = try RegistryClient(socketPath: fixture.daemon.socketPath, timeout: 5)
        _ = try client.resolve(ResolveQuery(family: "Lato", weight: .regular))
        _ = try client.resolve(ResolveQuery(family: "Lato", weight: .bold))
        let opened = try client.openFace(postscriptName: "Lato-Regular")
        let bytes = try #require(try opened.file.readToEnd())
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: fixture.publicFont))))
        // And the connection goes on answering.
        #expect(try client.resolve(ResolveQuery(family: "Lato", weight: .regular)).face.family == "Lato")
    }

    @Test func aClientThatCannotSeeTheFontDirectoryStillReadsTheFace() throws {
        let fixture = try Fixture()
        let expected = try runCommand(["/usr/bin/sha256sum", fixture.publicFont]).stdout.prefix(64)
        // A new mount namespace with an empty tmpfs over the font directory: the path shows nothing.
        let script = """
            mount -t tmpfs none "$1" && test ! -e "$1/Lato-Regular.ttf" && exec "$2" open Lato-Regular --socket "$3"
            """
        let result = try runCommand([
            "/usr/bin/unshare", "-m", "/bin/sh", "-c", script, "sh", fixture.directory.file("public"),
            BuildProducts.executable("fontresolve"), fixture.daemon.socketPath,
        ])
        try #require(
            !result.stderr.contains("unshare failed") && !result.stderr.contains("Operation not permitted"),
            "mount namespaces are not available here: \(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sha256 \(expected)"), "\(result.stdout)")
    }

    /// A Varlink client in Python that takes the descriptor with `socket.recv_fds`, as any
    /// sd-varlink-style client would, and hands it to fontTools.
    static let pythonClient = """
        import json, os, socket, sys
        from fontTools.ttLib import TTFont
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        call = {"method": "io.fontreg.Registry.OpenFace", "parameters": {"postscriptName": sys.argv[2]}}
        s.sendall(json.dumps(call).encode() + b"\\0")
        data, fds = b"", []
        while not data.endswith(b"\\0"):
            more, passed, _, _ = socket.recv_fds(s, 65536, 4)
            if not more:
                break
            data, fds = data + more, fds + passed
        reply = json.loads(data.rstrip(b"\\0"))["parameters"]
        with os.fdopen(fds[reply["fileDescriptor"]], "rb") as f:
            font = TTFont(f, fontNumber=reply["index"])
            print(font["name"].getDebugName(6), reply["size"], len(fds))
        """

    @Test func aPythonClientInANamespaceWithoutTheFontsLoadsTheFaceFromTheDescriptor() throws {
        let fixture = try Fixture()
        let python = BuildProducts.packageRoot.appendingPathComponent(".venv/bin/python3").path
        try #require(
            FileManager.default.isExecutableFile(atPath: python), "the project's venv (scripts/venv.sh) is missing")
        let script = fixture.directory.file("client.py")
        try Self.pythonClient.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try runCommand([
            "/usr/bin/unshare", "-m", "/bin/sh", "-c", #"mount -t tmpfs none "$1" && exec "$2" "$3" "$4" "$5""#, "sh",
            fixture.directory.file("public"), python, script, fixture.daemon.socketPath, "Lato-Regular",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: fixture.publicFont)[.size] as? Int
        #expect(result.stdout == "Lato-Regular \(size ?? -1) 1\n", "\(result.stdout) \(result.stderr)")
    }

    /// Issue 24: a face whose file the caller could not open is not even shown to it (before, it
    /// was listed and `OpenFace` refused it with exit 77).
    @Test func aFaceInADirectoryTheCallerCannotSearchIsNotShownToThem() throws {
        let fixture = try Fixture()
        let secret = try FontResolveProcess.run(
            ["open", "Lato-Bold", "--socket", fixture.daemon.socketPath], asNobody: true)
        #expect(secret.status == 1, "\(secret.stdout) \(secret.stderr)")
        #expect(secret.stderr.contains("No registered face has the PostScript name"), "\(secret.stderr)")
        #expect(!secret.stderr.contains("secret"), "the refusal names no path")
        let open = try FontResolveProcess.run(
            ["open", "Lato-Regular", "--socket", fixture.daemon.socketPath], asNobody: true)
        #expect(open.status == 0, "\(open.stderr)")
        // Root could open it, so root gets it.
        let root = try RegistryClient(socketPath: fixture.daemon.socketPath).openFace(postscriptName: "Lato-Bold")
        #expect(root.size > 0)
    }

    @Test func unknownNamesAndChangedFilesGetTypedErrors() throws {
        let fixture = try Fixture()
        let client = try RegistryClient(socketPath: fixture.daemon.socketPath)
        let unknown = remoteError { _ = try client.openFace(postscriptName: "No-Such-Face") }
        #expect(unknown?.name == "io.fontreg.Registry.FaceNotFound")
        let changed = remoteError { _ = try client.openFace(postscriptName: "Lato-Italic") }
        #expect(changed?.name == "io.fontreg.Registry.FaceFileUnavailable")
        #expect(changed?.parameters["reason"]?.stringValue?.contains("changed since it was indexed") == true)
        let cli = try FontResolveProcess.run(["open", "No-Such-Face", "--socket", fixture.daemon.socketPath])
        #expect(cli.status == 1)
        let embedded = try FontResolveProcess.run(["open", "Lato-Regular", "--fonts", fixture.directory.file("public")])
        #expect(embedded.status == 64, "\(embedded.stderr)")
    }

    @Test func theOutputOptionCopiesTheFileAndJSONDescribesIt() throws {
        let fixture = try Fixture()
        let copy = fixture.directory.file("copy.ttf")
        let result = try FontResolveProcess.run(
            ["open", "Lato-Regular", "--socket", fixture.daemon.socketPath, "--output", copy, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: copy, andPath: fixture.publicFont))
        let summary = try JSONParser.parse(Array(result.stdout.utf8))
        #expect(summary["output"]?.stringValue == copy)
        #expect(summary["size"]?.intValue == (try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int))
    }

}

/// `OpenFace` and users' own fonts (issue 15): a user opens their own faces; another user, and
/// root, are told the face does not exist, as `GetFace` tells them.
@Suite("fontregd OpenFace of users' own fonts", .serialized)
struct DaemonOpenFaceUserFontsTests {
    @Test func aUserOpensTheirOwnFaceAndNobodyElseLearnsItExists() throws {
        let (a, b) = (try TestUser.a, try TestUser.b)
        let daemon = try DaemonProcess(fonts: [BuildProducts.fixtureFonts + "/color"])
        let font = BuildProducts.fixtureFonts + "/families/NotoFixture-Bold.ttf"
        let directory = try a.makeFontDirectory(copying: [font])
        defer { a.removeFontDirectory(directory) }
        let registered = try a.fontresolve(["register", directory], socket: daemon.socketPath)
        try #require(registered.status == 0, "\(registered.stderr)")

        let own = try a.fontresolve(["open", "NotoFixture-Bold"], socket: daemon.socketPath)
        #expect(own.status == 0, "\(own.stderr)")
        let digest = try runCommand(["/usr/bin/sha256sum", font]).stdout.prefix(64)
        #expect(own.stdout.contains("sha256 \(digest)"), "\(own.stdout)")

        let other = try b.fontresolve(["open", "NotoFixture-Bold"], socket: daemon.socketPath)
        #expect(other.status == 1, "\(other.stdout) \(other.stderr)")
        #expect(other.stderr.contains("No registered face has the PostScript name"), "\(other.stderr)")
        let root = remoteError {
            _ = try RegistryClient(socketPath: daemon.socketPath).openFace(postscriptName: "NotoFixture-Bold")
        }
        #expect(root?.name == "io.fontreg.Registry.FaceNotFound")
    }
}

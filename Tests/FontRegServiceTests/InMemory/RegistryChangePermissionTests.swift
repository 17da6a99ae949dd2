import FontRegJSON
import FontRegService
import FontRegTestSupport
import Foundation
import Glibc
import Testing
import Varlink

/// Who may change the registry and which paths `Register` accepts, decided by the service from the
/// peer's credentials: driven in memory as a chosen peer (``InMemoryRegistry``).
@Suite("Register and Unregister refuse what they must, in memory")
struct RegistryChangePermissionTests {
    /// `nobody`, as the kernel would report it.
    static let nobody = InMemoryRegistry.user(65534)

    @Test func allowedGroupMayRegister() throws {
        let registry = try InMemoryRegistry(
            access: AccessPolicy(allowedUIDs: [0], allowedGIDs: [65534]), allowedRoots: [BuildProducts.realFonts])
        let reply = try registry.call(
            "Register", ["paths": [.string(BuildProducts.realFonts + "/Lato")]], as: Self.nobody)
        #expect(reply["added"]?.arrayValue?.count == 18)
    }

    @Test func aSupplementaryGroupAloneDoesNotAllowChanges() throws {
        let registry = try InMemoryRegistry(
            access: AccessPolicy(allowedUIDs: [0], allowedGIDs: [65534]), allowedRoots: [BuildProducts.realFonts])
        let peer = InMemoryRegistry.user(61_000, groups: [65534])
        let error = remoteError {
            try registry.call("Register", ["paths": [.string(BuildProducts.realFonts + "/Lato")]], as: peer)
        }
        #expect(error?.name == "io.fontreg.Registry.PermissionDenied")
        #expect(error?.parameters["uid"] == 61_000)
    }

    @Test func registerRefusesPathsOutsideRootsSymlinkEscapesDotDotFIFOsAndDevices() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("allowed")
        let outside = directory.file("outside")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let font = BuildProducts.fixtureFonts + "/families/FixtureSans-Regular.otf"
        try FileManager.default.copyItem(atPath: font, toPath: outside + "/Outside-Regular.otf")
        try FileManager.default.createSymbolicLink(
            atPath: allowed + "/escape.otf", withDestinationPath: outside + "/Outside-Regular.otf")
        try FileManager.default.createSymbolicLink(atPath: allowed + "/null", withDestinationPath: "/dev/null")
        #expect(mkfifo(allowed + "/pipe.ttf", 0o644) == 0)
        #expect(mknod(allowed + "/device.ttf", S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0)
        let client = try InMemoryRegistry(allowedRoots: [allowed]).connect()
        let cases: [(path: String, reason: String)] = [
            (outside + "/Outside-Regular.otf", "outside the allowed roots"),
            (allowed + "/escape.otf", "outside the allowed roots"),
            (allowed + "/../outside/Outside-Regular.otf", "'..'"),
            (allowed + "/pipe.ttf", "FIFO"),
            (allowed + "/device.ttf", "character device"),
            (allowed + "/null", "outside the allowed roots"),
            ("fonts/Lato", "not an absolute path"),
        ]
        for (path, reason) in cases {
            let error = remoteError { _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(path)]]) }
            #expect(error?.name == "io.fontreg.Registry.PathNotAllowed", "\(path)")
            #expect(
                error?.parameters["reason"]?.stringValue?.contains(reason) == true,
                "\(path): \(String(describing: error))")
            #expect(error?.parameters["allowedRoots"] == [.string(allowed)])
        }
        // A directory inside the root whose own symlink leads outside is refused as a whole.
        try FileManager.default.createDirectory(atPath: allowed + "/family", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: font, toPath: allowed + "/family/Inside-Regular.otf")
        try FileManager.default.createSymbolicLink(atPath: allowed + "/family/more", withDestinationPath: outside)
        let escape = remoteError {
            _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(allowed + "/family")]])
        }
        #expect(escape?.name == "io.fontreg.Registry.PathNotAllowed")
        #expect(escape?.parameters["reason"]?.stringValue?.contains(allowed + "/family/more") == true)
        let missing = remoteError {
            _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(allowed + "/missing.ttf")]])
        }
        #expect(missing?.name == "io.fontreg.Registry.FileNotFound")
        #expect(try client.call("io.fontreg.Registry.GetStatus")["generation"] == 1)
    }

    @Test func registerReportsAlreadyRegisteredInvalidFontAndNotRegistered() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        try Data("not a font at all".utf8).write(to: URL(fileURLWithPath: allowed + "/bad.ttf"))
        try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Lato", toPath: allowed + "/Lato")
        let client = try InMemoryRegistry(allowedRoots: [allowed]).connect()
        _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(allowed + "/Lato")]])
        let again = remoteError {
            _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(allowed + "/Lato")]])
        }
        #expect(again?.name == "io.fontreg.Registry.AlreadyRegistered")
        #expect(again?.parameters["path"]?.stringValue == allowed + "/Lato")
        let bad = remoteError {
            _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(allowed + "/bad.ttf")]])
        }
        #expect(bad?.name == "io.fontreg.Registry.InvalidFontData")
        #expect(bad?.parameters["reason"]?.stringValue?.isEmpty == false)
        let unregistered = remoteError {
            _ = try client.call("io.fontreg.Registry.Unregister", ["paths": [.string(allowed + "/bad.ttf")]])
        }
        #expect(unregistered?.name == "io.fontreg.Registry.NotRegistered")
        let removed = try client.call("io.fontreg.Registry.Unregister", ["paths": [.string(allowed + "/Lato")]])
        #expect(removed["removed"]?.arrayValue?.count == 18)
    }
}

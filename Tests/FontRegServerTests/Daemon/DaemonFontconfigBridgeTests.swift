import FontRegTestSupport
import Foundation
import Glibc
import Testing
import Varlink

@testable import FontRegJSON

/// Issue 28: with `--fontconfig-config`, fresh `fc-list` and `fc-match` processes whose
/// configuration includes the system's and the generated file see what the daemon serves.
@Suite("fontregd fontconfig bridge")
struct DaemonFontconfigBridgeTests {
    static let registry = "io.fontreg.Registry"
    static let families = BuildProducts.fixtureFonts + "/families"

    /// What one `fc-list` or `fc-match` run printed and how it ended.
    struct ToolOutput {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A daemon with the bridge on, an allowed root holding copies of fixture fonts, and a
    /// fontconfig configuration for the tools.
    final class Bridge {
        let directory = TemporaryDirectory()
        let daemon: DaemonProcess
        var allowed: String { directory.file("allowed") }
        var generated: String { directory.file("bridge/fontreg.conf") }
        var toolConfig: String { directory.file("fc.conf") }

        /// Copies `fonts` (directory → fixture file names) under the allowed root, writes `rules`
        /// (file name → JSON) and starts the daemon with no font directory of its own, watching
        /// directories when `watch`, with `environment` added to its own.
        init(
            fonts: [String: [String]], rules: [String: String] = [:], watch: Bool = false,
            environment: [String: String] = [:]
        ) throws {
            let manager = FileManager.default
            for (folder, names) in fonts {
                try manager.createDirectory(
                    atPath: directory.file("allowed/" + folder), withIntermediateDirectories: true)
                for name in names {
                    try manager.copyItem(
                        atPath: DaemonFontconfigBridgeTests.families + "/" + name,
                        toPath: directory.file("allowed/\(folder)/\(name)"))
                }
            }
            try manager.createDirectory(atPath: directory.file("configured"), withIntermediateDirectories: true)
            try manager.createDirectory(atPath: directory.file("rules"), withIntermediateDirectories: true)
            for (name, json) in rules {
                try json.write(toFile: directory.file("rules/" + name), atomically: true, encoding: .utf8)
            }
            daemon = try DaemonProcess(
                directory: directory, fonts: [directory.file("configured")],
                extraArguments: [
                    "--allow-root", directory.file("allowed"), "--watch", watch ? "yes" : "no", "--rules",
                    directory.file("rules"), "--fontconfig-config", directory.file("bridge/fontreg.conf"),
                ], environment: environment)
            // Our own cache directory first, so that the tools never write into the system's.
            let config = """
                <?xml version="1.0"?>
                <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
                <fontconfig>
                  <cachedir>\(directory.file("fc-cache"))</cachedir>
                  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
                  <include>\(directory.file("bridge/fontreg.conf"))</include>
                </fontconfig>

                """
            try config.write(toFile: toolConfig, atomically: true, encoding: .utf8)
            try waitFor("the daemon to write \(generated)") { manager.fileExists(atPath: generated) }
            _ = try tool("fc-list", [])  // builds the system fonts' caches before any timed wait
        }

        /// Calls a method as root and fails the test on an error reply.
        @discardableResult
        func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
            let reply = try daemon.client().call("\(DaemonFontconfigBridgeTests.registry).\(method)", parameters)
            #expect(reply["error"] == nil, "\(method): \(reply)")
            return reply
        }

        /// Runs `fc-list` or `fc-match` with the test configuration.
        func tool(_ name: String, _ arguments: [String]) throws -> ToolOutput {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
            process.arguments = arguments
            process.environment = [
                "FONTCONFIG_FILE": toolConfig, "HOME": directory.path, "XDG_CACHE_HOME": directory.file("xdg"),
                "PATH": "/usr/bin:/bin",
            ]
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return ToolOutput(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }

        /// The `family|postscriptname|file` lines `fc-list` prints for `family`.
        func listed(_ family: String) throws -> [String] {
            let output = try tool("fc-list", [family, "--format", "%{family}|%{postscriptname}|%{file}\n"])
            #expect(output.stderr.isEmpty, "fontconfig warned: \(output.stderr)")
            return output.stdout.split(separator: "\n").map(String.init)
        }

        /// Waits (at most 3 s, the issue's bound: 2 s for the rewrite and room for the tool) until
        /// `condition` holds of what `fc-list` lists for `family`.
        func waitForListing(_ what: String, _ family: String, _ condition: ([String]) -> Bool) throws {
            try waitFor(what, timeout: 3, interval: 0.05) { condition(try listed(family)) }
        }

        /// The generated file's text.
        var generatedText: String { (try? String(contentsOfFile: generated, encoding: .utf8)) ?? "" }
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }

    @Test func aRegisteredDirectoryIsSeenByFontconfigWithinThreeSecondsAndGoneAfterUnregister() throws {
        let bridge = try Bridge(fonts: ["avenir": ["AvenirFixture-Regular.ttf", "AvenirFixture-Bold.ttf"]])
        #expect(try bridge.listed("Avenir Fixture").isEmpty)
        let avenir = bridge.allowed + "/avenir"
        try bridge.call("Register", ["paths": [.string(avenir)]])
        try bridge.waitForListing("fc-list to list Avenir Fixture", "Avenir Fixture") { $0.count == 2 }
        #expect(bridge.generatedText.contains("<dir>\(avenir)</dir>"))
        #expect(try Self.mode(bridge.generated) == 0o644)
        #expect(try Self.mode(bridge.directory.file("bridge")) == 0o755)
        #expect(try Self.mode(bridge.directory.file("bridge/cache")) == 0o755)
        #expect(bridge.generatedText.contains("<cachedir>\(bridge.directory.file("bridge/cache"))</cachedir>"))
        try bridge.call("Unregister", ["paths": [.string(avenir)]])
        try bridge.waitForListing("fc-list to stop listing Avenir Fixture", "Avenir Fixture") { $0.isEmpty }
        #expect(!bridge.generatedText.contains(avenir))
    }

    @Test func aSingleRegisteredFileIsSeenWithoutTheRestOfItsDirectory() throws {
        let bridge = try Bridge(fonts: ["mixed": ["NeueFixture.ttf", "AvenirFixture-Regular.ttf"]])
        let neue = bridge.allowed + "/mixed/NeueFixture.ttf"
        try bridge.call("Register", ["paths": [.string(neue)]])
        try bridge.waitForListing("fc-list to list Neue Fixture", "Neue Fixture") { $0.count == 1 }
        #expect(try bridge.listed("Avenir Fixture").isEmpty)
        let file = try #require(try bridge.listed("Neue Fixture").first?.split(separator: "|").last)
        #expect(file.hasPrefix(bridge.directory.file("bridge/files/")), "\(file)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: String(file)) == neue)
        try bridge.call("Unregister", ["paths": [.string(neue)]])
        try bridge.waitForListing("fc-list to stop listing Neue Fixture", "Neue Fixture") { $0.isEmpty }
        #expect(try FileManager.default.contentsOfDirectory(atPath: bridge.directory.file("bridge/files")).isEmpty)
    }

    @Test func aDisabledFaceOrFamilyIsSkippedByFontconfigAndFoundAgainAfterEnable() throws {
        let bridge = try Bridge(
            fonts: ["avenir": ["AvenirFixture-Regular.ttf", "AvenirFixture-Bold.ttf"], "neue": ["NeueFixture.ttf"]])
        try bridge.call(
            "Register", ["paths": [.string(bridge.allowed + "/avenir"), .string(bridge.allowed + "/neue")]])
        try bridge.waitForListing("both Avenir faces", "Avenir Fixture") { $0.count == 2 }
        try bridge.call("Disable", ["target": "AvenirFixture-Bold", "kind": "face"])
        try bridge.waitForListing("the bold face to be skipped", "Avenir Fixture") {
            $0.count == 1 && $0[0].contains("AvenirFixture-Regular")
        }
        #expect(bridge.generatedText.contains("<patelt name=\"postscriptname\"><string>AvenirFixture-Bold</string>"))
        try bridge.call("Enable", ["target": "AvenirFixture-Bold", "kind": "face"])
        try bridge.waitForListing("the bold face to be back", "Avenir Fixture") { $0.count == 2 }
        try bridge.call("Disable", ["target": "Neue Fixture", "kind": "family"])
        try bridge.waitForListing("the Neue family to be skipped", "Neue Fixture") { $0.isEmpty }
        try bridge.call(
            "Disable", ["target": .string(bridge.allowed + "/avenir/AvenirFixture-Regular.ttf"), "kind": "file"])
        try bridge.waitForListing("the regular file to be skipped", "Avenir Fixture") {
            $0.count == 1 && $0[0].contains("AvenirFixture-Bold")
        }
        try bridge.call("Enable", ["target": "Neue Fixture", "kind": "family"])
        try bridge.waitForListing("the Neue family to be back", "Neue Fixture") { $0.count == 1 }
    }

    @Test func fcMatchResolvesARuleAliasAndADeprecatedAliasToTheTarget() throws {
        let rule =
            #"{"family": "Avenir Fixture", "aliases": ["Brand & <Sans> \"One\"", {"name": "Old Brand", "deprecated": true}]}"#
        let bridge = try Bridge(fonts: ["avenir": ["AvenirFixture-Regular.ttf"]], rules: ["avenir.json": rule])
        try bridge.call("Register", ["paths": [.string(bridge.allowed + "/avenir")]])
        try bridge.waitForListing("Avenir Fixture", "Avenir Fixture") { $0.count == 1 }
        #expect(bridge.generatedText.contains("<family>Brand &amp; &lt;Sans&gt; &quot;One&quot;</family>"))
        for alias in ["Brand & <Sans> \"One\"", "Old Brand"] {
            let match = try bridge.tool("fc-match", [alias, "--format", "%{family}"])
            #expect(match.stdout == "Avenir Fixture", "fc-match \(alias): \(match.stdout) \(match.stderr)")
            #expect(match.stderr.isEmpty, "\(match.stderr)")
        }
    }

    @Test func aPathWithXMLMetacharactersIsEscapedAndStillSeen() throws {
        let folder = "a&b<c>\"d'"
        let bridge = try Bridge(fonts: [folder: ["NeueFixture.ttf"]])
        let path = bridge.allowed + "/" + folder
        try bridge.call("Register", ["paths": [.string(path)]])
        try bridge.waitForListing("Neue Fixture from the odd directory", "Neue Fixture") { $0.count == 1 }
        #expect(bridge.generatedText.contains("a&amp;b&lt;c&gt;&quot;d&apos;"))
        #expect(!bridge.generatedText.contains(folder))
        let all = try bridge.tool("fc-list", [])
        #expect(all.stderr.isEmpty, "fontconfig warned: \(all.stderr)")
    }

    @Test func rulesReloadedOnSIGHUPReachTheBridge() throws {
        let bridge = try Bridge(fonts: ["avenir": ["AvenirFixture-Regular.ttf"]])
        try bridge.call("Register", ["paths": [.string(bridge.allowed + "/avenir")]])
        try bridge.waitForListing("Avenir Fixture", "Avenir Fixture") { $0.count == 1 }
        #expect(!bridge.generatedText.contains("<alias"))
        try #"{"family": "Avenir Fixture", "aliases": ["House Sans"]}"#.write(
            toFile: bridge.directory.file("rules/avenir.json"), atomically: true, encoding: .utf8)
        bridge.daemon.signal(SIGHUP)
        try waitFor("the alias in the bridge after SIGHUP", timeout: 10) {
            bridge.generatedText.contains("<family>House Sans</family>")
        }
        #expect(try bridge.tool("fc-match", ["House Sans", "--format", "%{family}"]).stdout == "Avenir Fixture")
    }

    @Test func atStopTheBridgeKeepsOnlyWhatOutlivesTheDaemon() throws {
        let bridge = try Bridge(fonts: ["session": ["NeueFixture.ttf"], "kept": ["AvenirFixture-Regular.ttf"]])
        let session = bridge.allowed + "/session"
        let kept = bridge.allowed + "/kept"
        try bridge.call("Register", ["paths": [.string(session)], "scope": "session"])
        try bridge.call("Register", ["paths": [.string(kept)], "scope": "persistent"])
        try waitFor("both directories in the bridge") {
            bridge.generatedText.contains("<dir>\(session)</dir>")
                && bridge.generatedText.contains("<dir>\(kept)</dir>")
        }
        #expect(try bridge.daemon.stop() == 0)
        #expect(!bridge.generatedText.contains(session))
        #expect(bridge.generatedText.contains("<dir>\(kept)</dir>"))
    }

    @Test func aUsersOwnFontsAndOwnDisablesStayOutOfTheBridge() throws {
        let user = try TestUser.a
        let bridge = try Bridge(fonts: ["avenir": ["AvenirFixture-Regular.ttf"]])
        let own = try user.makeFontDirectory(copying: [Self.families + "/NotoFixture-Regular.ttf"])
        defer { user.removeFontDirectory(own) }
        let registered = try user.fontresolve(["register", own], socket: bridge.daemon.socketPath)
        #expect(registered.status == 0, "\(registered.stderr)")
        let disabled = try user.fontresolve(["disable", "NotoFixture-Regular"], socket: bridge.daemon.socketPath)
        #expect(disabled.status == 0, "\(disabled.stderr)")
        // An administrator's change after the user's: once it shows, the file was rewritten since.
        try bridge.call("Register", ["paths": [.string(bridge.allowed + "/avenir")]])
        try bridge.waitForListing("Avenir Fixture", "Avenir Fixture") { $0.count == 1 }
        #expect(!bridge.generatedText.contains(user.home))
        #expect(!bridge.generatedText.contains("NotoFixture"))
        #expect(try bridge.listed("Noto Fixture").isEmpty)
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegServer
@testable import FontRegService

@Suite("fontregd configuration")
struct DaemonConfigurationTests {
    @Test func withoutFlagsTheSystemPathsAreUsed() throws {
        let defaults = try configuration(["--config", "/nonexistent/but/given"].dropLast(2).map { $0 })
        #expect(defaults.socketPath == "/run/fontreg/fontregd.sock")
        #expect(defaults.stateDirectory == "/var/lib/fontreg")
        #expect(defaults.configFile == "/etc/fontreg/fontregd.conf")
        #expect(defaults.fontDirectories == ["/usr/share/fontreg/fonts"])
        #expect(defaults.access.allowedUIDs == [0])
        #expect(defaults.includeSystemFonts)
    }

    @Test func flagsOverrideTheFileAndAListFlagReplacesTheFilesList() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("fontregd.conf")
        try """
        # comment
        fonts = /srv/a
        fonts = /srv/b
        allow-uid = 1000
        max-connections = 10
        system-fonts = no
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try configuration(["--config", file])
        #expect(fromFile.fontDirectories == ["/srv/a", "/srv/b"])
        #expect(fromFile.access.allowedUIDs == [1000])
        #expect(fromFile.limits.maximumConnections == 10)
        #expect(!fromFile.includeSystemFonts)
        let overridden = try configuration(["--config", file, "--fonts", "/srv/c", "--max-connections=20"])
        #expect(overridden.fontDirectories == ["/srv/c"])
        #expect(overridden.limits.maximumConnections == 20)
        #expect(overridden.access.allowedUIDs == [1000])
    }

    @Test func mistakesInTheFileNameTheLine() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("bad.conf")
        try "fonts = /a\nfrobnicate = 1\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.unknownSetting(file: file, line: 2, name: "frobnicate")) {
            try configuration(["--config", file])
        }
        try "just words\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.malformedLine(file: file, line: 1)) {
            try configuration(["--config", file])
        }
    }

    @Test(arguments: [
        (["--socket-mode", "999"], "socket-mode"),
        (["--idle-timeout", "-1"], "idle-timeout"), (["--system-fonts=maybe"], "system-fonts"),
    ])
    func badValuesAreRefusedWithWhatWasExpected(_ arguments: [String], _ setting: String) {
        do {
            _ = try configuration(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            guard case .invalidValue(let name, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(name == setting)
        }
    }

    @Test func aNamedConfigFileThatIsMissingIsAnError() {
        #expect(throws: ConfigurationError.self) { try configuration(["--config", "/nonexistent/fontregd.conf"]) }
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegServer

/// Issue 28: the `fontconfig-config` setting, on for the installed service, off for a daemon started by hand.
@Suite("fontconfig-config setting")
struct FontconfigBridgeSettingTests {
    @Test func theBridgeIsOffForADaemonStartedByHandAndInSystemdsRuntimeDirectoryForTheService() {
        #expect(DaemonConfiguration.defaultFontconfigConfig(environment: [:]) == nil)
        #expect(
            DaemonConfiguration.defaultFontconfigConfig(environment: ["RUNTIME_DIRECTORY": "/run/fontreg/fontconfig"])
                == "/run/fontreg/fontconfig/fontreg.conf")
        #expect(DaemonConfiguration.defaultFontconfigConfig(environment: ["RUNTIME_DIRECTORY": "relative"]) == nil)
    }

    @Test func theCommandLineNamesTheFileRelativeToTheWorkingDirectoryAndNoTurnsItOff() throws {
        let given = try configuration(["--fontconfig-config", "/srv/fc/fontreg.conf", "--config", "/dev/null"])
        #expect(given.fontconfigConfig == "/srv/fc/fontreg.conf")
        let relative = try configuration(["--fontconfig-config", "fc/fontreg.conf", "--config", "/dev/null"])
        #expect(relative.fontconfigConfig == FileManager.default.currentDirectoryPath + "/fc/fontreg.conf")
        let off = try configuration(["--fontconfig-config", "no", "--config", "/dev/null"])
        #expect(off.fontconfigConfig == nil)
    }

    @Test func theConfigFileSetsTheBridgeAndNoTurnsItOffButARelativePathIsRefused() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("fontregd.conf")
        try "fontconfig-config = /var/lib/fc/fontreg.conf\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try configuration(["--config", file]).fontconfigConfig == "/var/lib/fc/fontreg.conf")
        try "fontconfig-config = no\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try configuration(["--config", file]).fontconfigConfig == nil)
        try "fontconfig-config = fc.conf\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try configuration(["--config", file]) }
    }
}

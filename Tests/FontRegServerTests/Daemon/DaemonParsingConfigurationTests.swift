import Testing

@testable import FontRegCore
@testable import FontRegServer

/// The settings of the sandboxed font parsers (issue 15): `parse-fonts`, `parse-worker-user`, `parse-timeout`.
@Suite("fontregd parsing settings")
struct DaemonParsingConfigurationTests {
    @Test func parsingIsSandboxedAsNobodyWithAFiveSecondTimeoutByDefault() throws {
        let defaults = try configuration([])
        guard case .sandboxed(let settings) = FontRegDaemon.parsing(defaults) else {
            Issue.record("the daemon parses in process by default")
            return
        }
        #expect(settings.executable == "/proc/self/exe")
        #expect(settings.arguments == ["--parse-worker"])
        #expect(settings.user == "nobody" && settings.timeoutSeconds == 5 && settings.workers == 2)
    }

    @Test func theSettingsChangeTheWorkersOrTurnTheSandboxOff() throws {
        let set = try configuration(["--parse-worker-user", "fontreg", "--parse-timeout", "0.5"])
        guard case .sandboxed(let settings) = FontRegDaemon.parsing(set) else {
            Issue.record("expected sandboxed parsing")
            return
        }
        #expect(settings.user == "fontreg" && settings.timeoutSeconds == 0.5)
        #expect(
            settings.workerArguments.suffix(6) == ["--user", "fontreg", "--memory-mib", "1024", "--cpu-seconds", "300"])
        #expect(FontRegDaemon.parsing(try configuration(["--parse-fonts", "in-process"])) == .inProcess)
    }

    @Test(arguments: [
        ["--parse-fonts", "maybe"], ["--parse-timeout", "0"], ["--parse-timeout", "soon"],
        ["--parse-worker-user", "../root"],
    ])
    func aBadParsingSettingIsRefusedWithWhatItExpects(_ arguments: [String]) {
        #expect(throws: ConfigurationError.self) { try configuration(arguments) }
    }
}

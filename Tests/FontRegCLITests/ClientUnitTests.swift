import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegCLI
@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol
@testable import Varlink

/// The client's pieces in process: socket discovery, tables, argument forwarding.
@Suite struct ClientUnitTests {
    @Test func socketOptionWinsOverTheEnvironment() {
        let locator = SocketLocator(environment: ["FONTREG_SOCKET": "/env.sock"], exists: { _ in true })
        #expect(locator.socketPath(option: "/option.sock") == "/option.sock")
        #expect(locator.socketPath(option: nil) == "/env.sock")
    }

    @Test func systemSocketIsUsedWhenItExists() {
        let locator = SocketLocator(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"],
            exists: { $0 == SocketLocator.systemSocket || $0.hasPrefix("/run/user") })
        #expect(locator.socketPath(option: nil) == "/run/fontreg/fontregd.sock")
    }

    @Test func perUserSocketIsUsedWhenOnlyItExists() {
        let locator = SocketLocator(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], exists: { $0.hasPrefix("/run/user") })
        #expect(locator.socketPath(option: nil) == "/run/user/1000/fontreg/fontregd.sock")
    }

    @Test func systemSocketIsNamedWhenNoSocketExists() {
        let locator = SocketLocator(environment: [:], exists: { _ in false })
        #expect(locator.socketPath(option: nil) == "/run/fontreg/fontregd.sock")
    }

    @Test func tableAlignsColumnsAndNumbersToTheRight() {
        var table = Table(headers: ["NAME", "N"], rightAligned: [1])
        table.append(["a", "100"])
        table.append(["longer", "7"])
        #expect(table.render() == ["NAME      N", "a       100", "longer    7"])
    }

    @Test func everyExitStatusOfAnErrorIsASysexitsCode() {
        #expect(CLIError.usage("x", usage: "u").exitStatus.rawValue == 64)
        #expect(CLIError.notFound("x").exitStatus.rawValue == 1)
        #expect(CLIError.daemonUnreachable(socket: "/s", reason: "r").exitStatus.rawValue == 69)
        #expect(CLIError.permissionDenied("x").exitStatus.rawValue == 77)
    }

    @Test func unreachableDaemonMessageSaysHowToStartItOrUseFonts() {
        let text = CLIError.daemonUnreachable(socket: "/tmp/s.sock", reason: "no socket there").description
        #expect(text.contains("fontregd --socket /tmp/s.sock --fonts DIR"))
        #expect(text.contains("systemctl start fontregd.socket"))
        #expect(text.contains("--fonts DIR"))
    }

    @Test func daemonPermissionErrorBecomesExit77WithASentence() {
        let error = VarlinkError(
            RegistryInterface.ErrorName.permissionDenied,
            ["method": "io.fontreg.Registry.Rescan", "uid": 65534, "gid": 65534])
        let translated = DaemonErrorTranslator(socketPath: "/s").translate(error)
        #expect(translated.exitStatus == .permissionDenied)
        #expect(translated.description.contains("refused Rescan to your user (uid 65534, gid 65534)"))
    }

    @Test func aPersistedStateBudgetRefusalBecomesASentenceNamingTheSettingAndWhatToDo() {
        let error = VarlinkError(
            RegistryInterface.ErrorName.persistedStateLimitReached,
            ["setting": "max-persisted-per-user", "maximum": 256, "requested": 257])
        let translated = DaemonErrorTranslator(socketPath: "/s").translate(error)
        #expect(translated.exitStatus == .failure)
        #expect(translated.description.contains("at most 256 saved entries"))
        #expect(translated.description.contains("max-persisted-per-user"))
        #expect(translated.description.contains("Nothing was changed"))
    }

    @Test func familyNotFoundFromTheDaemonKeepsItsSuggestions() {
        let error = VarlinkError(
            RegistryInterface.ErrorName.familyNotFound, ["family": "Latto", "suggestions": ["Lato"]])
        let translated = DaemonErrorTranslator(socketPath: "/s").translate(error)
        #expect(translated.exitStatus == .failure)
        #expect(translated.description == "No registered family is named \"Latto\". Did you mean \"Lato\"?")
    }
}

/// The spinner of long calls.
@Suite struct ProgressIndicatorTests {
    final class Recorder: Sendable {
        let text = Mutex<String>("")
    }

    @Test func spinnerShowsElapsedTimeForALongCallThenErasesItsLine() {
        let recorder = Recorder()
        let indicator = ProgressIndicator(enabled: true) { chunk in recorder.text.withLock { $0 += chunk } }
        // A call that lasts until the spinner has drawn (bounded): no timing assumption about a busy machine.
        let result = indicator.run("Rescanning") { () -> Int in
            try? waitFor("the spinner to draw the elapsed time") { recorder.text.withLock { $0.contains(" s") } }
            return 7
        }
        #expect(result == 7)
        let drawn = recorder.text.withLock { $0 }
        #expect(drawn.contains("Rescanning… "))
        #expect(drawn.range(of: #"Rescanning… \d+\.\d s"#, options: .regularExpression) != nil)
        #expect(drawn.hasSuffix("\r\u{1B}[K"))
    }

    @Test func spinnerStaysSilentForAShortCall() {
        let recorder = Recorder()
        let indicator = ProgressIndicator(enabled: true) { chunk in recorder.text.withLock { $0 += chunk } }
        _ = indicator.run("Registering") { usleep(50_000) }
        #expect(recorder.text.withLock { $0 }.isEmpty)
    }

    @Test func spinnerIsNeverDrawnWhenDisabled() {
        let recorder = Recorder()
        let indicator = ProgressIndicator(enabled: false) { chunk in recorder.text.withLock { $0 += chunk } }
        _ = indicator.run("Registering") { usleep(700_000) }
        #expect(recorder.text.withLock { $0 }.isEmpty)
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON
@testable import FontRegServer
@testable import FontRegService
@testable import Varlink

/// Start, readiness, reload, stop, restart and socket activation of the real daemon.
@Suite("fontregd lifecycle under systemd conventions", .serialized)
struct DaemonLifecycleTests {
    @Test func notifiesReadyWithAStatusAfterTheFirstIndexAndStoppingOnSIGTERM() throws {
        let directory = TemporaryDirectory()
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(directory: directory, environment: ["NOTIFY_SOCKET": notify.path])
        let ready = notify.messages(until: "READY=1").joined(separator: "\n")
        #expect(ready.contains("READY=1"))
        #expect(ready.contains("STATUS=Serving 128 faces"))
        daemon.signal(SIGTERM)
        let stopping = notify.messages(until: "STOPPING=1")
        #expect(stopping.joined().contains("STOPPING=1"))
        #expect(try daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    /// Issue 29 item 3: `READY=1` goes out before the services start their threads and first
    /// writes (each waited for a core before it on a loaded machine); `STOPPING=1` still first at stop.
    @Test func readyIsSentBeforeTheServerSignalsAndSnapshotStartAndStoppingBeforeAnyServiceStops() throws {
        let directory = TemporaryDirectory()
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(
            directory: directory, extraArguments: ["--verbose", "yes"], environment: ["NOTIFY_SOCKET": notify.path])
        _ = notify.messages(until: "READY=1")
        try waitFor("every service started") { daemon.log.contains("started snapshot") }
        let started = ["persistence", "notifier", "server", "signal handling", "snapshot"].map { name in
            daemon.log.range(of: "started \(name)\n")?.lowerBound
        }
        #expect(started.allSatisfy { $0 != nil }, "\(daemon.log)")
        let order = started.compactMap { $0 }
        #expect(order == order.sorted(), "\(daemon.log)")
        daemon.signal(SIGTERM)
        #expect(notify.messages(until: "STOPPING=1").joined().contains("STOPPING=1"))
        #expect(try daemon.waitForExit() == 0)
        let stopped = ["snapshot", "server", "notifier", "persistence"].map {
            daemon.log.range(of: "stopped \($0)\n")?.lowerBound
        }
        #expect(stopped.allSatisfy { $0 != nil }, "\(daemon.log)")
        let stopOrder = stopped.compactMap { $0 }
        #expect(stopOrder == stopOrder.sorted(), "\(daemon.log)")
    }

    @Test func sighupSendsReloadingWithMonotonicUsecThenReadyAndAppliesTheConfigFile() throws {
        let directory = TemporaryDirectory()
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(directory: directory, environment: ["NOTIFY_SOCKET": notify.path])
        _ = notify.messages(until: "READY=1")
        let client = try daemon.client()
        #expect(try client.call("io.fontreg.Registry.GetStatus")["faces"] == 128)
        // The config file gains a font directory; SIGHUP applies it.
        try "fonts = \(BuildProducts.realFonts)/Lato\n".write(
            toFile: directory.file("fontregd.conf"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        let messages = notify.messages(until: "READY=1")
        let reloading = messages.first { $0.contains("RELOADING=1") } ?? ""
        #expect(reloading.contains("MONOTONIC_USEC="))
        let usec = reloading.split(separator: "\n").first { $0.hasPrefix("MONOTONIC_USEC=") }
            .flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) }
        #expect(usec != nil && usec! > 0)
        #expect(messages.last?.contains("READY=1") == true)
        // Flags win over the file: --fonts on the command line replaces the file's list, so Lato is not added.
        #expect(try client.call("io.fontreg.Registry.GetStatus")["faces"] == 128)
        #expect(try daemon.stop() == 0)
    }

    @Test func sighupAddsFontDirectoriesNamedOnlyInTheConfigFile() throws {
        let directory = TemporaryDirectory()
        try "fonts = \(BuildProducts.fixtureFonts)\n".write(
            toFile: directory.file("fontregd.conf"), atomically: true, encoding: .utf8)
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(directory: directory, fonts: [], environment: ["NOTIFY_SOCKET": notify.path])
        _ = notify.messages(until: "READY=1")
        #expect(try daemon.client().call("io.fontreg.Registry.GetStatus")["faces"] == 128)
        try "fonts = \(BuildProducts.fixtureFonts)\nfonts = \(BuildProducts.realFonts)/Lato\n".write(
            toFile: directory.file("fontregd.conf"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        _ = notify.messages(until: "READY=1")
        #expect(try daemon.client().call("io.fontreg.Registry.GetStatus")["faces"] == 146)
    }

    @Test func persistedRegistrationSurvivesKill9AndRestart() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Lato", toPath: allowed + "/Lato")
        try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Inter", toPath: allowed + "/Inter")
        let arguments = ["--allow-root", allowed]
        let first = try DaemonProcess(directory: directory, extraArguments: arguments)
        let client = try first.client()
        _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(allowed + "/Lato")], "persist": true])
        _ = try client.call("io.fontreg.Registry.Register", ["paths": [.string(allowed + "/Inter")]])
        first.signal(SIGKILL)
        _ = try? first.waitForExit()
        // The socket file stays behind after kill -9; the next daemon replaces it.
        let second = try DaemonProcess(directory: directory, extraArguments: arguments)
        let again = try second.client()
        #expect(
            try again.call("io.fontreg.Registry.Resolve", ["family": "Lato", "weight": "700", "strict": true])[
                "postscriptName"] == "Lato-Bold")
        let inter = remoteError {
            _ = try again.call("io.fontreg.Registry.Resolve", ["family": "Inter", "strict": true])
        }
        #expect(inter?.name == "io.fontreg.Registry.FamilyNotFound")
        // Unregistering forgets the persisted path too.
        _ = try again.call("io.fontreg.Registry.Unregister", ["paths": [.string(allowed + "/Lato")]])
        #expect(try second.stop() == 0)
        let third = try DaemonProcess(directory: directory, extraArguments: arguments)
        let lato = remoteError {
            _ = try third.client().call("io.fontreg.Registry.Resolve", ["family": "Lato", "strict": true])
        }
        #expect(lato?.name == "io.fontreg.Registry.FamilyNotFound")
    }

    @Test func servesTheSocketPassedBySystemdSocketActivate() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("activated.sock")
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(
            directory: directory, extraArguments: [], environment: ["NOTIFY_SOCKET": notify.path],
            socketPath: directory.file("unused.sock"),
            launcher: ["/usr/bin/systemd-socket-activate", "-l", path, "--fdname=varlink", "-E", "NOTIFY_SOCKET"],
            waitUntilServing: false)
        // systemd-socket-activate listens first and starts fontregd at the first connection.
        var client: VarlinkClient?
        try waitFor("systemd-socket-activate to listen on \(path)", timeout: 10, interval: 0.02) {
            client = try? VarlinkClient(socketPath: path, timeout: 20)
            return client != nil
        }
        let connected = try #require(client)
        #expect(try connected.call("io.fontreg.Registry.GetStatus")["faces"] == 128)
        #expect(notify.messages(until: "READY=1").joined().contains("READY=1"))
        #expect(daemon.log.contains("passed by systemd"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("unused.sock")))
        #expect(try daemon.stop() == 0)
    }

    @Test func copyingAFontIntoAWatchedDirectoryIsAnnouncedOnMonitor() throws {
        let directory = TemporaryDirectory()
        let fonts = try directory.fontDirectory(copying: [
            BuildProducts.fixtureFonts + "/families/FixtureSans-Regular.otf"
        ])
        let daemon = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--debounce-ms", "100"])
        let monitor = try daemon.client(timeout: 20)
        try monitor.send(VarlinkCall(method: "io.fontreg.Registry.Monitor", more: true))
        #expect(try monitor.receive().parameters["event"] == "subscribed")
        try FileManager.default.createDirectory(atPath: fonts + "/Lato", withIntermediateDirectories: true)
        for name in ["Lato-Bold.ttf", "Lato-Regular.ttf"] {
            try FileManager.default.copyItem(
                atPath: BuildProducts.realFonts + "/Lato/" + name, toPath: fonts + "/Lato/" + name)
        }
        var added = 0
        while added < 2 {
            let event = try monitor.receive()
            #expect(event.parameters["event"] == "changed")
            added += event.parameters["added"]?.arrayValue?.count ?? 0
        }
        #expect(added == 2)
        #expect(try daemon.client().call("io.fontreg.Registry.GetFace", ["postscriptName": "Lato-Bold"])["face"] != nil)
    }

    @Test func helpDocumentsEveryFlagAndBadFlagsExitWithUsage() throws {
        let help = try runCommand([BuildProducts.executable("fontregd"), "--help"])
        #expect(help.status == 0)
        for setting in DaemonConfiguration.settings {
            #expect(help.stdout.contains("--\(setting.name) "), "--help lacks --\(setting.name)")
        }
        #expect(help.stdout.contains("--no-system-fonts"))
        let bad = try runCommand([BuildProducts.executable("fontregd"), "--frobnicate"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown option --frobnicate"))
        let value = try runCommand([BuildProducts.executable("fontregd"), "--max-connections", "lots"])
        #expect(value.status == 64)
        #expect(value.stderr.contains("max-connections"))
    }

    @Test func sigtermLetsAnInFlightRegisterFinishAndAnswerBeforeExitingZero() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("allowed")
        // Ten hard-linked copies of the fixtures (600 paths): a scan still in flight when SIGTERM comes.
        let enumerator = FileManager.default.enumerator(atPath: BuildProducts.fixtureFonts + "/families")
        let files = (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".ttf") || $0.hasSuffix(".otf") }
        for copy in 0..<10 {
            let target = allowed + "/copy\(copy)"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            for file in files {
                #expect(link(BuildProducts.fixtureFonts + "/families/" + file, target + "/" + file) == 0)
            }
        }
        let daemon = try DaemonProcess(directory: directory, extraArguments: ["--allow-root", allowed])
        let client = try daemon.client(timeout: 30)
        try client.send(VarlinkCall(method: "io.fontreg.Registry.Register", parameters: ["paths": [.string(allowed)]]))
        // Signal only once the daemon has taken the call (it logs that before the scan starts).
        try waitFor("the daemon to log that it is registering \(allowed)", interval: 0.005) {
            daemon.log.contains("registering \(allowed)")
        }
        daemon.signal(SIGTERM)
        let reply = try client.receive()
        #expect(reply.error == nil)
        #expect(reply.parameters["generation"] == 2)
        #expect(try daemon.waitForExit() == 0)
        let log = daemon.log
        let stopping = log.range(of: "stopping: finishing in-flight calls")
        let registered = log.range(of: "registered \(allowed)")
        #expect(stopping != nil && registered != nil)
        if let stopping, let registered {
            #expect(stopping.lowerBound < registered.lowerBound, "the call finished before SIGTERM: \(log)")
        }
    }

    @Test func petsTheWatchdogWhenSystemdAsksForOne() throws {
        let directory = TemporaryDirectory()
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(
            directory: directory, environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        let messages = notify.messages(until: "WATCHDOG=1", timeout: 5)
        #expect(messages.contains("WATCHDOG=1"))
        #expect(try daemon.stop() == 0)
    }

    @Test func sighupWithABrokenConfigFileKeepsThePreviousConfigurationAndStaysReady() throws {
        let directory = TemporaryDirectory()
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        let daemon = try DaemonProcess(directory: directory, environment: ["NOTIFY_SOCKET": notify.path])
        _ = notify.messages(until: "READY=1")
        try "max-connections = lots\n".write(toFile: directory.file("fontregd.conf"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(notify.messages(until: "READY=1").last?.contains("READY=1") == true)
        #expect(daemon.log.contains("keeping the previous configuration"))
        #expect(try daemon.client().call("io.fontreg.Registry.GetStatus")["faces"] == 128)
    }

    @Test func aRegistrationThatCannotBePersistedIsRolledBackAndReported() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Lato", toPath: allowed + "/Lato")
        let daemon = try DaemonProcess(directory: directory, extraArguments: ["--allow-root", allowed])
        // A directory where the state file must go makes the rename over it fail (EISDIR), even for root.
        try FileManager.default.createDirectory(
            atPath: directory.file("state/registrations.json/kept"), withIntermediateDirectories: true)
        let client = try daemon.client()
        let error = remoteError {
            _ = try client.call(
                "io.fontreg.Registry.Register", ["paths": [.string(allowed + "/Lato")], "persist": true])
        }
        #expect(error?.name == "io.fontreg.Registry.PersistenceFailed")
        #expect(error?.parameters["reason"]?.stringValue?.contains("registrations.json") == true)
        let lato = remoteError {
            _ = try client.call("io.fontreg.Registry.Resolve", ["family": "Lato", "strict": true])
        }
        #expect(lato?.name == "io.fontreg.Registry.FamilyNotFound")
    }
}

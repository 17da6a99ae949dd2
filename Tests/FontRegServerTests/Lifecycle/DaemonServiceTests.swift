import Dispatch
import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegJSON
@testable import FontRegServer
@testable import FontRegSystem
@testable import Varlink

/// A service answering `org.example.ping.Ping` with its parameters, for a server with no registry.
struct PingService: VarlinkService {
    let introspection = VarlinkIntrospection(
        info: VarlinkServiceInfo(vendor: "test", product: "ping", version: "1", url: "https://example.org"),
        interfaces: [VarlinkInterfaceDescription(name: "org.example.ping", text: "interface org.example.ping\n")])

    /// The limit errors this service's clients expect.
    static let errors = VarlinkLimitErrors(
        messageTooLarge: "org.example.ping.TooLarge", invalidMessage: "org.example.ping.Invalid",
        tooManyConnections: "org.example.ping.Busy")

    func handle(_ call: VarlinkCall, peer: PeerCredentials) -> CallOutcome {
        .reply(call.parameters)
    }
}

/// Where ``JournalService``s write what happened to them, in order.
final class Journal: Sendable {
    let entries = Mutex<[String]>([])

    /// Appends one entry.
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }

    /// The entries so far.
    var all: [String] { entries.withLock { $0 } }
}

/// A service that records its start and stop in a shared journal; its thread ends only when `holdsOn` is false.
final class JournalService: DaemonService {
    let name: String
    let journal: Journal
    let failsToStart: Bool
    let holdsOn: Bool
    /// Whether it records being told that the stop begins (``DaemonService/stopping()``).
    let announcesStop: Bool

    init(
        _ name: String, journal: Journal, failsToStart: Bool = false, holdsOn: Bool = false,
        announcesStop: Bool = false
    ) {
        self.name = name
        self.journal = journal
        self.failsToStart = failsToStart
        self.holdsOn = holdsOn
        self.announcesStop = announcesStop
    }

    func stopping() {
        if announcesStop { journal.append("stopping \(name)") }
    }

    struct StartFailure: Error {}

    func start() throws {
        if failsToStart { throw StartFailure() }
        journal.append("start \(name)")
    }

    func stop(before deadline: DispatchTime) -> Bool {
        journal.append("stop \(name)")
        if holdsOn {
            // A thread that does not end: the stop waits out the deadline and reports it.
            let never = DispatchSemaphore(value: 0)
            return never.wait(timeout: deadline) == .success
        }
        return true
    }
}

@Suite("fontregd services start in order and stop in reverse")
struct DaemonServiceTests {
    @Test func theGroupStopsItsServicesInReverseOrderOfStart() throws {
        let journal = Journal()
        let group = DaemonServiceGroup(logger: Logger(minimumLevel: .error))
        for name in ["persistence", "watcher", "server"] { try group.start(JournalService(name, journal: journal)) }
        #expect(group.names == ["persistence", "watcher", "server"])
        #expect(group.stop(within: 1).isEmpty)
        #expect(
            journal.all == [
                "start persistence", "start watcher", "start server", "stop server", "stop watcher",
                "stop persistence",
            ])
        #expect(group.names.isEmpty)
    }

    /// The notifier starts first (`READY=1` before the others' threads) yet says `STOPPING=1` first.
    @Test func everyServiceIsToldTheStopBeginsBeforeAnyOfThemStops() throws {
        let journal = Journal()
        let group = DaemonServiceGroup(logger: Logger(minimumLevel: .error))
        for name in ["notifier", "server"] {
            try group.start(JournalService(name, journal: journal, announcesStop: true))
        }
        #expect(group.stop(within: 1).isEmpty)
        #expect(
            journal.all == [
                "start notifier", "start server", "stopping server", "stopping notifier", "stop server",
                "stop notifier",
            ])
    }

    @Test func aServiceThatCannotStartIsNotStoppedAndTheOthersAre() {
        let journal = Journal()
        let group = DaemonServiceGroup(logger: Logger(minimumLevel: .error))
        #expect(throws: Never.self) { try group.start(JournalService("a", journal: journal)) }
        #expect(throws: JournalService.StartFailure.self) {
            try group.start(JournalService("b", journal: journal, failsToStart: true))
        }
        group.stop(within: 1)
        #expect(journal.all == ["start a", "stop a"])
    }

    @Test func aServiceStillRunningAtTheDeadlineIsNamedAndTheStopStaysBounded() throws {
        let journal = Journal()
        let group = DaemonServiceGroup(logger: Logger(minimumLevel: .error))
        try group.start(JournalService("first", journal: journal))
        try group.start(JournalService("stuck", journal: journal, holdsOn: true))
        let started = MonotonicClock.microseconds
        #expect(group.stop(within: 0.2) == ["stuck"])
        #expect(MonotonicClock.microseconds - started < 2_000_000)
        #expect(journal.all.last == "stop first")
    }

    @Test func theServerAnswersUntilStoppedThenItsThreadsHaveEnded() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("ping.sock")
        let server = try VarlinkServer(
            listeners: [try ListeningSocket.bind(path: path)], service: PingService(), errors: PingService.errors,
            threads: 2, logger: Logger(minimumLevel: .error))
        server.start()
        let client = try VarlinkClient(socketPath: path, timeout: 5)
        #expect(try client.call("org.example.ping.Ping", ["n": 1]) == ["n": 1])
        #expect(server.stop(before: .now() + 5))
        #expect(!UnixSocket.isListening(at: path))
    }

    @Test func theServerSendsTheServicesErrorNameForItsConnectionLimit() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("ping.sock")
        let server = try VarlinkServer(
            listeners: [try ListeningSocket.bind(path: path)], service: PingService(), errors: PingService.errors,
            limits: ServerLimits(maximumConnections: 1), threads: 1, logger: Logger(minimumLevel: .error))
        server.start()
        defer { server.stop(before: .now() + 5) }
        let first = try VarlinkClient(socketPath: path, timeout: 5)
        #expect(try first.call("org.example.ping.Ping") == [:])
        let second = try VarlinkClient(socketPath: path, timeout: 5)
        let reply = try second.receive()
        #expect(reply.error == "org.example.ping.Busy")
        #expect(reply.parameters["limit"] == 1)
    }

    @Test func theWatcherReportsAChangeAndItsThreadEndsAtStop() throws {
        let directory = TemporaryDirectory()
        let fonts = try directory.fontDirectory()
        let watcher = try FontDirectoryWatcher(
            directories: [fonts], debounceMilliseconds: 20, logger: Logger(minimumLevel: .error))
        let changed = DispatchSemaphore(value: 0)
        watcher.start { _ in changed.signal() }
        #expect(FileManager.default.createFile(atPath: fonts + "/new.ttf", contents: Data([0])))
        #expect(changed.wait(timeout: .now() + 5) == .success)
        #expect(watcher.stop(before: .now() + 5))
    }

    @Test func signalHandlingStopsWithoutASignal() throws {
        let watcher = try SignalWatcher(logger: Logger(minimumLevel: .error)) { _ in }
        watcher.start()
        #expect(watcher.stop(before: .now() + 5))
    }

    @Test func theDaemonStopsEveryServiceInTimeOnSigterm() throws {
        let daemon = try DaemonProcess()
        #expect(try daemon.stop() == 0)
        let log = daemon.log
        #expect(log.contains("stopped"))
        #expect(!log.contains("still running at exit"))
        #expect(!log.contains("did not stop"))
    }
}

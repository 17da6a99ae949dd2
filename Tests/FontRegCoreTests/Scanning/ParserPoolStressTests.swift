import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegCore
@testable import FontRegSystem

/// The parser pool under faults and load (issue 30): every file handed over comes back exactly
/// once, whatever the workers do, and the pool never waits for answers no worker is working on.
///
/// Real `fontregd --parse-worker` processes, real descriptors, real fonts; the faults are the
/// worker's own (`--test-faults`, chosen by file name) plus kills from outside.
@Suite(.serialized) struct ParserPoolStressTests {
    /// The kinds of file a round hands over, by the fault their name asks for.
    enum Kind: String, CaseIterable {
        case good, crash = "parser-crash", exit = "parser-exit", hang = "parser-hang", slow = "parser-slow"
    }

    /// A folder of hard links to one real font, a few of each kind.
    final class Corpus {
        let directory = Fixtures.temporaryDirectory()
        private(set) var files: [Kind: [String]] = [:]

        init() throws {
            let source = Fixtures.families + "/NotoFixture-Regular.ttf"
            for kind in Kind.allCases {
                for number in 0..<(kind == .good ? 40 : 4) {
                    let path = "\(directory)/\(kind.rawValue)-\(number).ttf"
                    try FileManager.default.linkItem(atPath: source, toPath: path)
                    files[kind, default: []].append(path)
                }
            }
        }

        deinit { Fixtures.cleanUp(directory) }

        /// A job for a file, on a descriptor opened as the scanner opens them.
        func job(_ path: String) throws -> ParseJob {
            let descriptor = try FileDescriptor.open(path, as: .file)
            return ParseJob(path: path, descriptor: descriptor, size: try descriptor.status().size)
        }
    }

    /// Worker settings with the tests' faults, a small CPU budget for the spinning parser and
    /// small batches so that a round crosses several of them.
    static func settings(timeout: Double = 0.3, stall: Double? = nil, workers: Int = 2) -> SandboxedParsing {
        var settings = SandboxedParsing(
            executable: BuildProducts.executable("fontregd"), arguments: ["--parse-worker", "--test-faults"],
            workers: workers, timeoutSeconds: timeout, stallSeconds: stall)
        settings.batchSize = 4
        return settings
    }

    /// Busy threads that keep both cores loaded while a test runs.
    final class Load: @unchecked Sendable {
        private let running = Atomic<Bool>(true)
        private var threads: [Thread] = []

        init(threads count: Int = 3) {
            for _ in 0..<count {
                let thread = Thread { [self] in
                    var value: UInt64 = 1
                    while running.load(ordering: .relaxed) { value = value &* 6_364_136_223_846_793_005 &+ 1 }
                    _ = value
                }
                thread.start()
                threads.append(thread)
            }
        }

        func stop() { running.store(false, ordering: .relaxed) }
    }

    /// The rounds and seconds of the stress run: bounded in the suite, thousands on demand
    /// (`FONTREG_POOL_STRESS_ROUNDS=5000 FONTREG_POOL_STRESS_SECONDS=3600`).
    static var bounds: (rounds: Int, seconds: Double) {
        let environment = ProcessInfo.processInfo.environment
        return (
            Int(environment["FONTREG_POOL_STRESS_ROUNDS"] ?? "") ?? 300,
            Double(environment["FONTREG_POOL_STRESS_SECONDS"] ?? "") ?? 40
        )
    }

    @Test func everyFileComesBackExactlyOnceUnderLoadWithKilledHungSlowAndExitingWorkers() throws {
        let corpus = try Corpus()
        let load = Load()
        defer { load.stop() }
        let seed = UInt64(ProcessInfo.processInfo.environment["FONTREG_POOL_STRESS_SEED"] ?? "") ?? 0x5eed_f047
        var random = SeededRandom(seed: seed)  // SnapshotValidationTests.swift: SplitMix64, replayable
        let pool = ParserPool(settings: Self.settings())
        defer { pool.finish() }
        let (rounds, seconds) = Self.bounds
        let started = MonotonicClock.microseconds
        var done = 0
        var kills = 0
        while done < rounds, Double(MonotonicClock.microseconds - started) / 1e6 < seconds {
            var paths: [String] = []
            let count = Int.random(in: 1...40, using: &random)
            let hangs = Int.random(in: 0..<8, using: &random) == 0
            for _ in 0..<count {
                let roll = Int.random(in: 0..<100, using: &random)
                let kind: Kind =
                    roll < 4 ? .crash : roll < 8 ? .exit : roll < 14 ? .slow : roll < 15 && hangs ? .hang : .good
                paths.append(corpus.files[kind]!.randomElement(using: &random)!)
            }
            var tickets: [Int: String] = [:]
            var answers: [(ticket: Int, reply: ParseReply)] = []
            for path in paths {
                tickets[pool.submit(try corpus.job(path))] = path
                if Int.random(in: 0..<12, using: &random) == 0, let victim = pool.workerProcessIDs.randomElement() {
                    // Not yet reaped by the pool (it reaps only inside its own calls), so the pid is its worker's.
                    kill(victim, SIGKILL)
                    kills += 1
                }
                answers += pool.collect(waiting: false)
            }
            answers += pool.drain()
            let returned = answers.map(\.ticket)
            #expect(returned.count == Set(returned).count, "a file came back twice (seed \(seed), round \(done))")
            #expect(Set(returned) == Set(tickets.keys), "a file did not come back (seed \(seed), round \(done))")
            #expect(pool.outstanding == 0)
            for (ticket, reply) in answers {
                let name = (tickets[ticket]! as NSString).lastPathComponent
                if name.hasPrefix("parser-") && !name.hasPrefix("parser-slow") {
                    if case .faces = reply {
                        Issue.record("\(name) came back with faces (seed \(seed), round \(done))")
                    }
                } else if case .problem(let reason, _) = reply {
                    // A good file is blamed only when a worker was killed from outside while it read it.
                    #expect(
                        reason.contains("signal 9") || reason == ParserPool.restartedReason,
                        "\(name): \(reason) (seed \(seed), round \(done))")
                }
            }
            if Int.random(in: 0..<20, using: &random) == 0 { pool.finish() }
            done += 1
        }
        let elapsed = Double(MonotonicClock.microseconds - started) / 1e6
        print("parser pool stress: \(done) rounds, \(kills) workers killed from outside, \(elapsed) s, seed \(seed)")
        #expect(done >= min(rounds, 20), "only \(done) rounds in \(seconds) s")
        #expect(kills > 0 || done < 20)
    }

    /// The hang the issue found: a worker holding a file ends, the pool's next send to it fails,
    /// and the old pool dropped the worker with the file it held, then waited for it for ever.
    @Test func aWorkerThatExitsWhileHoldingAFileGivesItBackWhenTheNextSendIsRefused() throws {
        let corpus = try Corpus()
        var settings = Self.settings(timeout: 5, workers: 1)
        settings.batchSize = 1
        let pool = ParserPool(settings: settings)
        defer { pool.finish() }
        let exiting = corpus.files[.exit]![0]
        let first = pool.submit(try corpus.job(exiting))
        let worker = try #require(pool.workerProcessIDs.first)
        // The worker exits on that file; until the pool reaps it, it stays a zombie of ours.
        try waitFor("the worker exits on its file") {
            (try? String(contentsOfFile: "/proc/\(worker)/stat", encoding: .utf8))?.contains(") Z ") ?? true
        }
        let second = pool.submit(try corpus.job(corpus.files[.good]![0]))
        let answers = Dictionary(uniqueKeysWithValues: pool.drain().map { ($0.ticket, $0.reply) })
        #expect(Set(answers.keys) == [first, second])
        #expect(answers[first] == .problem("the font parser stopped on this file (exit status 0)"))
        guard case .faces(let faces) = answers[second] else {
            Issue.record("the good file came back as \(String(describing: answers[second]))")
            return
        }
        #expect(faces.count == 1)
    }

    /// The full suite once failed every sandboxed parse (exit status 65): the test process held
    /// more than 64 descriptors opened without `O_CLOEXEC` (other tests' pipes), the workers
    /// inherited them and, with `RLIMIT_NOFILE` 64, could not install the descriptors passed to them.
    @Test func aWorkerInheritsNoDescriptorButItsSocketAndParsesWhateverTheDaemonHoldsOpen() throws {
        let corpus = try Corpus()
        let held = (0..<100).map { _ in open("/dev/null", O_RDONLY) }
        defer { for fd in held where fd >= 0 { close(fd) } }
        try #require(held.allSatisfy { $0 >= 0 })
        let pool = ParserPool(settings: Self.settings(timeout: 5, workers: 1))
        defer { pool.finish() }
        let paths = Array(corpus.files[.good]!.prefix(12))
        let tickets = try paths.map { pool.submit(try corpus.job($0)) }
        let worker = try #require(pool.workerProcessIDs.first)
        // Once in its sandbox it has run its own code (a child just forked still has the parent's table).
        try waitFor("the worker in its sandbox") {
            ((try? String(contentsOfFile: "/proc/\(worker)/status", encoding: .utf8)) ?? "").contains("\nSeccomp:\t2\n")
        }
        let inherited = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker)/fd")) ?? []
        #expect(Set(inherited.compactMap { Int($0) }).isSubset(of: Set(0...40)), "\(inherited.sorted())")
        #expect(!inherited.contains(String(held.last!)), "the daemon's descriptor \(held.last!) reached the worker")
        let answers = Dictionary(uniqueKeysWithValues: pool.drain().map { ($0.ticket, $0.reply) })
        for ticket in tickets {
            guard case .faces = answers[ticket] else {
                Issue.record("a good file came back as \(String(describing: answers[ticket]))")
                continue
            }
        }
    }

    @Test func aWorkerBlockedWithoutUsingCPUTimeIsStoppedByTheStallBudget() throws {
        let corpus = try Corpus()
        let directory = corpus.directory
        let blocked = directory + "/parser-sleep.ttf"
        try FileManager.default.linkItem(atPath: corpus.files[.good]![0], toPath: blocked)
        let pool = ParserPool(settings: Self.settings(timeout: 5, stall: 1))
        defer { pool.finish() }
        let paths = [corpus.files[.good]![1], blocked, corpus.files[.good]![2]]
        let tickets = try paths.map { pool.submit(try corpus.job($0)) }
        let answers = Dictionary(uniqueKeysWithValues: pool.drain().map { ($0.ticket, $0.reply) })
        #expect(answers[tickets[1]] == .problem("the font parser stopped answering for 1 s on this file; not indexed"))
        for ticket in [tickets[0], tickets[2]] {
            guard case .faces = answers[ticket] else {
                Issue.record("a good file came back as \(String(describing: answers[ticket]))")
                continue
            }
        }
    }

    @Test func aSpinningParserIsStoppedByItsCPUBudgetWhileABusyMachineSlowsNoGoodFile() throws {
        let corpus = try Corpus()
        let load = Load(threads: 4)
        defer { load.stop() }
        let pool = ParserPool(settings: Self.settings(timeout: 0.2))
        defer { pool.finish() }
        let paths = corpus.files[.good]!.prefix(20) + [corpus.files[.hang]![0]] + corpus.files[.slow]!
        let tickets = try paths.map { pool.submit(try corpus.job($0)) }
        let answers = Dictionary(uniqueKeysWithValues: pool.drain().map { ($0.ticket, $0.reply) })
        for (ticket, path) in zip(tickets, paths) {
            if path.contains("parser-hang") {
                #expect(
                    answers[ticket]
                        == .problem("the font parser used more than 0.2 s of CPU time on this file; not indexed"))
            } else if case .faces = answers[ticket] {
            } else {
                Issue.record("\(path) came back as \(String(describing: answers[ticket]))")
            }
        }
    }
}

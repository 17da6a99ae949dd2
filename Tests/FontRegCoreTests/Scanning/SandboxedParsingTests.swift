import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegSystem

/// Font parsing in sandboxed worker processes (issue 15): the built `fontregd --parse-worker`,
/// real descriptors over a real socket pair, real fonts.
@Suite struct SandboxedParsingTests {
    /// Worker settings for the built `fontregd`, with the tests' faults when asked.
    static func settings(faults: Bool = false, timeout: Double = 5) -> SandboxedParsing {
        SandboxedParsing(
            executable: BuildProducts.executable("fontregd"),
            arguments: faults ? ["--parse-worker", "--test-faults"] : ["--parse-worker"], timeoutSeconds: timeout)
    }

    @Test func sandboxedWorkersReadTheSameFacesAndProblemsAsParsingInProcess() throws {
        let roots = [Fixtures.fonts, Fixtures.bundled]
        let inProcess = FontScanner().scan(roots: roots)
        let sandboxed = FontScanner(pool: ParserPool(settings: Self.settings())).scan(roots: roots)
        #expect(inProcess.files.count > 40)
        #expect(sandboxed.files.map(\.path) == inProcess.files.map(\.path))
        #expect(sandboxed.files.map(\.faces) == inProcess.files.map(\.faces))
        #expect(sandboxed.problems == inProcess.problems)
        #expect(!inProcess.problems.isEmpty, "the bad fixtures give problems through both paths")
    }

    @Test func aParserThatCrashesHangsOrCallsWhatTheSandboxForbidsCostsOnlyThatFile() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let source = Fixtures.families + "/NotoFixture-Regular.ttf"
        let names = ["a", "parser-crash", "b", "parser-hang", "c", "parser-syscall", "d"]
        for name in names {
            try FileManager.default.copyItem(atPath: source, toPath: "\(directory)/\(name).ttf")
        }
        let scanner = FontScanner(pool: ParserPool(settings: Self.settings(faults: true, timeout: 0.5)))
        let result = scanner.scan(roots: [directory])
        #expect(result.files.map { ($0.path as NSString).lastPathComponent } == ["a.ttf", "b.ttf", "c.ttf", "d.ttf"])
        let reasons = Dictionary(
            uniqueKeysWithValues: result.problems.map { (($0.path as NSString).lastPathComponent, $0.reason) })
        #expect(reasons["parser-crash.ttf"] == "the font parser crashed on this file (signal 11, Segmentation fault)")
        #expect(
            reasons["parser-hang.ttf"] == "the font parser used more than 0.5 s of CPU time on this file; not indexed")
        #expect(
            reasons["parser-syscall.ttf"]
                == "the font parser made a forbidden system call on this file and was stopped (signal 31, SIGSYS)")
        #expect(result.problems.count == 3)
    }

    /// The walk goes on while the workers parse (issue 13): more files than the scanner keeps open
    /// at once, a crash and a hang among them, still come back complete and in the walk's order.
    @Test func moreFilesThanThePendingBoundComeBackInTheWalksOrderWhileTheWalkGoesOn() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let source = Fixtures.families + "/NotoFixture-Regular.ttf"
        let count = FontScanner.pendingLimit * 2 + 7
        var names = (0..<count).map { String(format: "f%04d", $0) }
        names[40] = "f0040-parser-crash"
        names[200] = "f0200-parser-hang"
        for name in names { try FileManager.default.copyItem(atPath: source, toPath: "\(directory)/\(name).ttf") }
        let scanner = FontScanner(pool: ParserPool(settings: Self.settings(faults: true, timeout: 0.5)))
        let result = scanner.scan(roots: [directory])
        let read = names.filter { !$0.contains("parser-") }.map { "\(directory)/\($0).ttf" }
        #expect(result.files.map(\.path) == read)
        #expect(result.files.allSatisfy { $0.faces.count == 1 })
        #expect(
            result.problems.map { ($0.path as NSString).lastPathComponent } == [
                names[40] + ".ttf", names[200] + ".ttf",
            ])
    }

    /// A mutated CFF font (from the font fuzzer) on which FreeType sorts a large array: glibc's
    /// `qsort` then calls `sysinfo`, which the first filter forbade, so the worker was killed.
    @Test func aRealMutantThatOnceKilledTheWorkerIsReadAsInProcess() throws {
        let corpus = Fixtures.repository + "/Tests/reliability/corpus/fonts"
        let inProcess = FontScanner().scan(roots: [corpus])
        let sandboxed = FontScanner(pool: ParserPool(settings: Self.settings())).scan(roots: [corpus])
        #expect(sandboxed.files.map(\.faces) == inProcess.files.map(\.faces))
        #expect(sandboxed.problems == inProcess.problems)
        #expect(!sandboxed.problems.contains { $0.kind == .parserFailed }, "\(sandboxed.problems)")
    }

    @Test func aWorkerThatCannotStartIsReportedForEveryFileAndNotRestartedForEver() throws {
        var settings = Self.settings()
        settings.executable = "/bin/false"
        let started = MonotonicClock.microseconds
        let result = FontScanner(pool: ParserPool(settings: settings)).scan(roots: [Fixtures.families])
        #expect(result.files.isEmpty)
        #expect(!result.problems.isEmpty)
        #expect(result.problems.allSatisfy { $0.kind == .parserFailed })
        #expect(
            result.problems.allSatisfy { $0.reason == "the font parser could not be started; see the daemon's log" })
        #expect(MonotonicClock.microseconds - started < 10_000_000)
    }

    @Test func aRegistryConfiguredForSandboxedParsingServesTheSameFaces() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        var configuration = RegistryConfiguration(fontDirectories: [Fixtures.families], cacheDirectory: directory)
        configuration.parsing = .sandboxed(Self.settings())
        let sandboxed = try FontRegistry(configuration: configuration)
        let inProcess = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [Fixtures.families], cacheDirectory: directory + "/b")
        )
        #expect(sandboxed.index.faces.count > 10)
        #expect(sandboxed.index.faces == inProcess.index.faces)
    }

    @Test func requestsAndRepliesCrossTheSocketIntact() throws {
        let items = [
            ParseRequestItem(id: 0, size: 12, path: "/a/b.ttf"),
            ParseRequestItem(id: 7, size: 1 << 40, path: "/ü/c.otf"),
        ]
        #expect(ParseRequest.decode(ParseRequest.encode(items)) == items)
        let faces = try #require(FontScanner().scan(roots: [Fixtures.fonts + "/variable"]).files.first).faces
        #expect(faces.count > 1)
        let encoded = ParseReply.faces(faces).encode(id: 3, path: faces[0].file)
        let decoded = try #require(ParseReply.decode(encoded))
        #expect(decoded.id == 3)
        #expect(decoded.reply == .faces(faces))
        #expect(ParseReply.decode(ParseReply.problem("bad").encode(id: 1, path: "/x"))?.reply == .problem("bad"))
        #expect(ParseReply.decode(Array(encoded.dropLast(3))) == nil)
        #expect(ParseRequest.decode([1, 0]) == nil)
    }
}

import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON
@testable import Varlink

/// The daemon parses fonts in sandboxed workers (issue 15): a parser that crashes, hangs or makes a
/// forbidden call costs only that file, and the workers run unprivileged under seccomp.
@Suite("fontregd's sandboxed font parsers", .serialized)
struct DaemonSandboxedParsingTests {
    static let registry = "io.fontreg.Registry"

    /// A font directory with good files and files the tests' faults make a worker crash, hang or misbehave on.
    static func faultyFonts(in directory: TemporaryDirectory) throws -> String {
        let names = ["good-1", "parser-crash", "good-2", "parser-hang", "parser-syscall", "good-3"]
        return try directory.fontDirectory(
            copying: names.map { _ in BuildProducts.fixtureFonts + "/families/NotoFixture-Regular.ttf" },
            as: names.map { $0 + ".ttf" })
    }

    @Test func aParserThatCrashesHangsOrIsKilledCostsOnlyItsFileAndTheDaemonServesTheRest() throws {
        let directory = TemporaryDirectory()
        let fonts = try Self.faultyFonts(in: directory)
        let daemon = try DaemonProcess(
            directory: directory, fonts: [fonts], extraArguments: ["--parse-timeout", "0.5", "--watch", "no"],
            environment: ["FONTREG_TEST_PARSER_FAULTS": "1"])
        let client = try daemon.client()
        let status = try client.call("\(Self.registry).GetStatus")
        var reasons: [String: String] = [:]
        for problem in status["problems"]?.arrayValue ?? [] {
            if let path = problem["path"]?.stringValue, let reason = problem["reason"]?.stringValue {
                reasons[(path as NSString).lastPathComponent] = reason
            }
        }
        #expect(reasons["parser-crash.ttf"] == "the font parser crashed on this file (signal 11, Segmentation fault)")
        #expect(
            reasons["parser-hang.ttf"] == "the font parser used more than 0.5 s of CPU time on this file; not indexed")
        #expect(reasons["parser-syscall.ttf"]?.contains("forbidden system call") == true, "\(reasons)")
        #expect(reasons.count == 3, "\(reasons)")
        // The three good copies are one face each (duplicates of one another): the family is served.
        let resolved = try client.call("\(Self.registry).Resolve", ["family": "Noto Fixture", "weight": 400])
        #expect(resolved["face"]?["file"]?.stringValue?.hasPrefix(fonts) == true, "\(resolved)")
        // The restarted workers keep working: a new file is read at the next rescan.
        try FileManager.default.copyItem(
            atPath: BuildProducts.fixtureFonts + "/families/NotoFixture-Bold.ttf", toPath: fonts + "/good-4.ttf")
        _ = try client.call("\(Self.registry).Rescan")
        let bold = try client.call("\(Self.registry).Resolve", ["family": "Noto Fixture", "weight": 700])
        #expect(bold["face"]?["file"]?.stringValue == fonts + "/good-4.ttf", "\(bold)")
        #expect(daemon.process.isRunning)
    }

    @Test func theParsersRunAsNobodyWithNoNewPrivilegesUnderASeccompFilterAndStopAfterTheScan() throws {
        try #require(getuid() == 0, "dropping to nobody needs the tests to run as root")
        // A file the workers hang on (tests' faults) keeps them alive long enough to be looked at.
        let directory = TemporaryDirectory()
        let fonts = try directory.fontDirectory(
            copying: [BuildProducts.fixtureFonts + "/families/NotoFixture-Regular.ttf"], as: ["parser-hang.ttf"])
        let daemon = try DaemonProcess(
            directory: directory, fonts: [fonts], extraArguments: ["--parse-timeout", "3", "--watch", "no"],
            environment: ["FONTREG_TEST_PARSER_FAULTS": "1"], waitUntilServing: false)
        var workers: [Int32: String] = [:]
        // Until both have started and entered their sandbox (a child just forked is still root); the
        // hung one lives until it has spent 3 s of CPU time, however busy the machine.
        try? waitFor("both parse workers in their sandbox") {
            // Below the daemon's index builder on a cold start (issue 29 item 2), else the daemon's own.
            workers = ProcessTable.descendants(of: daemon.process.processIdentifier).filter {
                $0.value.contains("\nSeccomp:\t2\n")
            }
            return workers.count == 2
        }
        #expect(workers.count == 2, "\(workers.keys)")
        for (_, status) in workers {
            #expect(status.contains("\nUid:\t65534\t65534\t65534\t65534\n"), "\(status)")
            #expect(status.contains("\nNoNewPrivs:\t1\n"))
            #expect(status.contains("\nSeccomp:\t2\n"))
            #expect(
                status.contains("\nGroups:\t \n") || status.contains("\nGroups:\t\n"), "supplementary groups cleared")
        }
        try daemon.waitUntilAccepting()
        #expect(
            ProcessTable.descendants(of: daemon.process.processIdentifier).isEmpty,
            "no worker or index builder idles after the scan")
    }
}

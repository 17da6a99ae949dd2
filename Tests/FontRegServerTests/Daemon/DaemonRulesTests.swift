import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegJSON
@testable import Varlink

/// The daemon's rules as clients see them: `ListRules`, rule problems in the log, `GetStatus` and
/// `fontresolve status`, and `rules show` against the daemon.
@Suite("fontregd rules")
struct DaemonRulesTests {
    static let registry = "io.fontreg.Registry"
    static let bundledFonts = BuildProducts.packageRoot.appendingPathComponent("fonts").path
    static let bundledRules = BuildProducts.packageRoot.appendingPathComponent("fonts/rules").path

    @Test func listRulesPublishesTheRuleFilesAndRulesShowUsesThem() throws {
        let daemon = try DaemonProcess(fonts: [Self.bundledFonts], extraArguments: ["--rules", Self.bundledRules])
        let reply = try daemon.client().call("\(Self.registry).ListRules")
        let rules = reply["rules"]?.arrayValue ?? []
        #expect(rules.count == 1)
        #expect(rules.first?["source"]?.stringValue?.hasSuffix("fonts/rules/lato.json") == true)
        #expect(rules.first?["rule"]?["weightNames"]?["thin"] == "Hairline")
        #expect(reply["problems"]?.arrayValue?.isEmpty == true)
        let show = try FontResolveProcess.run(["rules", "show", "Lato", "--socket", daemon.socketPath])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("lato.json"), "the daemon's rule, not the default one: \(show.stdout)")
        #expect(show.stdout.contains("Hairline"))
        let list = try FontResolveProcess.run(["rules", "show", "--socket", daemon.socketPath])
        #expect(list.status == 0 && list.stdout.contains("Lato"), "\(list.stdout)\(list.stderr)")
    }

    @Test func aMalformedRuleFileAndAMissingRulesDirectoryAreReportedInTheLogStatusAndListRules() throws {
        let directory = TemporaryDirectory()
        let rules = directory.file("rules")
        try FileManager.default.createDirectory(atPath: rules, withIntermediateDirectories: true)
        try "{\n  \"family\": \"Lato\",\n  \"colour\": 1\n}\n".write(
            toFile: rules + "/bad.json", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--rules", rules])
        let status = try daemon.client().call("\(Self.registry).GetStatus")
        let problems = status["problems"]?.arrayValue ?? []
        #expect(
            problems.contains {
                $0["path"]?.stringValue?.hasSuffix("bad.json") == true
                    && $0["reason"]?.stringValue?.contains("line 3") == true
            }, "\(problems)")
        let listed = try daemon.client().call("\(Self.registry).ListRules")["problems"]?.arrayValue ?? []
        #expect(listed.count == 1)
        let text = try FontResolveProcess.run(["status", "--socket", daemon.socketPath])
        #expect(text.stdout.contains("bad.json"), "\(text.stdout)")
        let log = try String(contentsOfFile: daemon.logPath, encoding: .utf8)
        #expect(log.contains("bad.json:3"), "\(log)")

        let missing = try DaemonProcess(extraArguments: ["--rules", directory.file("no-such-rules")])
        let missingStatus = try missing.client().call("\(Self.registry).GetStatus")
        #expect(
            (missingStatus["problems"]?.arrayValue ?? []).contains {
                $0["path"]?.stringValue?.hasSuffix("no-such-rules") == true
            })
        let missingLog = try String(contentsOfFile: missing.logPath, encoding: .utf8)
        #expect(missingLog.contains("no-such-rules"), "\(missingLog)")
    }

    @Test func registeringADirectoryInsideARegisteredOneSaysSo() throws {
        let directory = TemporaryDirectory()
        let allowed = directory.file("fonts")
        try FileManager.default.createDirectory(atPath: allowed + "/lato", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: BuildProducts.realFonts + "/Lato/Lato-Bold.ttf", toPath: allowed + "/lato/Lato-Bold.ttf")
        let daemon = try DaemonProcess(directory: directory, extraArguments: ["--allow-root", allowed])
        _ = try daemon.client().call("\(Self.registry).Register", ["paths": [.string(allowed)]])
        let inner = try FontResolveProcess.run(["register", allowed + "/lato", "--socket", daemon.socketPath])
        #expect(inner.status == 1)
        #expect(inner.stderr.contains("is inside the registered directory \(allowed)"), "\(inner.stderr)")
    }
}

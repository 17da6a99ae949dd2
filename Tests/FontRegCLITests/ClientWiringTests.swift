import FontRegTestSupport
import Foundation
import Testing

/// The audit's wiring and `rules check` against the daemon's faces, as against `--fonts`.
@Suite(.serialized) struct ClientWiringTests {
    let bundled = AuditFixtures.repositoryRoot.appendingPathComponent("fonts").path
    let tokens = AuditFixtures.repositoryRoot.appendingPathComponent("docs/examples/tokens").path

    @Test func wiringFromTheDaemonMatchesTheWiringWithTheSameFonts() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(
            directory: directory, fonts: AuditFixtures.bundledFontDirectories, extraArguments: ["--watch", "no"])
        let remoteOut = directory.file("remote")
        let localOut = directory.file("local")
        let remote = try FontResolveProcess.run([
            "audit", tokens, "--emit", "css", "--emit", "ios", "--out", remoteOut, "--socket", daemon.socketPath,
        ])
        let local = try FontResolveProcess.run(
            ["audit", tokens, "--emit", "css", "--emit", "ios", "--out", localOut]
                + AuditFixtures.bundledFontDirectories.flatMap { ["--fonts", $0] })
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(local.status == 0, "\(local.stderr)")
        for file in ["css/fonts.css", "ios/FontRegLatoFontFamily.swift", "ios/UIAppFonts.plist"] {
            let remoteText = try String(contentsOfFile: remoteOut + "/" + file, encoding: .utf8)
            let localText = try String(contentsOfFile: localOut + "/" + file, encoding: .utf8)
            #expect(remoteText == localText, "\(file)")
        }
    }

    @Test func rulesCheckUsesTheDaemonsFacesWithTheGivenRuleFiles() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(
            directory: directory, fonts: AuditFixtures.bundledFontDirectories, extraArguments: ["--watch", "no"])
        let wrong = try FontResolveProcess.run([
            "rules", "check", "--rules", AuditFixtures.tokens("rules-check"), "--socket", daemon.socketPath,
        ])
        #expect(wrong.status == 1, "\(wrong.stderr)")
        #expect(wrong.stdout.hasSuffix("1 rule checked: 4 errors, 5 warnings\n"))
        let bundledRules = try FontResolveProcess.run([
            "rules", "check", "--rules", bundled + "/rules", "--socket", daemon.socketPath,
        ])
        #expect(bundledRules.status == 0, "\(bundledRules.stdout)\(bundledRules.stderr)")
    }
}

import FontRegCore
import FontRegProtocol
import Testing

@testable import FontRegCLI

/// `fontresolve status` on a machine with hundreds of font directories (issue 30): the
/// registrations people made are listed, the configuration's and fontconfig's are counted.
@Suite struct StatusSummaryTests {
    static let console = Console(environment: ["NO_COLOR": "1"])

    static func status(systemDirectories: Int, problems: Int = 0) -> RegistryStatus {
        let system = (0..<systemDirectories).map { "/usr/share/fonts/truetype/family-\($0)" }
        var status = RegistryStatus(
            mode: .daemon, faces: 900, families: 300, generation: 1,
            problems: (0..<problems).map {
                ScanProblem(path: "/srv/bad-\($0).ttf", reason: "not a font file", kind: .notAFont)
            },
            fontDirectories: system, registeredPaths: system + ["/srv/brand-fonts"])
        status.registrations = [
            RegistrationSummary(path: "/srv/brand-fonts", owner: 0, scope: "persistent", private: false)
        ]
        return status
    }

    @Test func manyDirectoriesNobodyRegisteredAreCountedAndTheRegisteredOnesListed() {
        let text = StatusCommand.render(Self.status(systemDirectories: 415), console: Self.console)
        let lines = text.split(separator: "\n")
        #expect(lines.count < 20, "\(lines.count) lines")
        #expect(text.contains("  /srv/brand-fonts  (uid 0, persistent)"))
        #expect(
            text.contains(
                "  415 directories from the configuration and fontconfig (`fontresolve status --all` lists them)"))
        #expect(!text.contains("family-7"))
    }

    @Test func allListsEveryDirectoryAndEveryProblem() {
        let status = Self.status(systemDirectories: 415, problems: 30)
        let text = StatusCommand.render(status, console: Self.console, all: true)
        #expect(text.contains("family-414"))
        #expect(text.contains("/srv/bad-29.ttf"))
        #expect(!text.contains("--all"))
    }

    @Test func problemsPastTheLimitAreCountedWithoutAll() {
        let text = StatusCommand.render(Self.status(systemDirectories: 3, problems: 30), console: Self.console)
        #expect(text.contains("family-2"), "a few directories are listed as before")
        #expect(text.contains("/srv/bad-9.ttf"))
        #expect(!text.contains("/srv/bad-10.ttf"))
        #expect(text.contains("… and 20 more (`fontresolve status --all` lists them)"))
    }
}

import FontRegService
import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegServer

/// The config-file and command-line forms a new user writes: inline comments, relative paths,
/// yes|no settings given alone, and the example file of docs/daemon.md as it stands.
@Suite("fontregd configuration syntax")
struct DaemonConfigurationSyntaxTests {
    /// The indented block that follows "Example `/etc/fontreg/fontregd.conf`:" in docs/daemon.md.
    func daemonDocExample() throws -> String {
        let doc = try String(
            contentsOf: BuildProducts.packageRoot.appendingPathComponent("docs/daemon.md"), encoding: .utf8)
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Example `/etc/fontreg/fontregd.conf`") })
        let block = lines[(start + 2)...].prefix { $0.hasPrefix("    ") }
        return block.map { String($0.dropFirst(4)) }.joined(separator: "\n") + "\n"
    }

    /// The first column of the settings table of docs/daemon.md, in order.
    func daemonDocSettingNames() throws -> [String] {
        let doc = try String(
            contentsOf: BuildProducts.packageRoot.appendingPathComponent("docs/daemon.md"), encoding: .utf8)
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| Setting") || $0.hasPrefix("| setting") })
        return lines[(header + 2)...].prefix { $0.hasPrefix("| `") }.compactMap { line in
            line.split(separator: "`", maxSplits: 2).dropFirst().first.map(String.init)
        }
    }

    @Test func theSettingsTableOfTheDaemonDocNamesEverySettingOfHelpAndNoOther() throws {
        let documented = try daemonDocSettingNames()
        let served = DaemonConfiguration.settings.map(\.name)
        #expect(
            Set(documented) == Set(served),
            "only in the doc: \(Set(documented).subtracting(served)); only in --help: \(Set(served).subtracting(documented))"
        )
        #expect(documented.count == Set(documented).count)
    }

    @Test func theExampleFileInTheDaemonDocIsAcceptedAsItStands() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("fontregd.conf")
        let example = try daemonDocExample()
        #expect(example.contains("# sudo"), "the example shows an inline comment")
        try example.write(toFile: file, atomically: true, encoding: .utf8)
        let parsed = try configuration(["--config", file])
        #expect(parsed.fontDirectories == ["/usr/share/fontreg/fonts", "/srv/brand-fonts"])
        #expect(parsed.access.allowedGIDs == [27])
        #expect(parsed.allowedRoots == ["/srv/brand-fonts"])
        #expect(!parsed.includeSystemFonts)
    }

    @Test func theSampleConfigFileParsesAndChangesNothing() throws {
        let sample = BuildProducts.packageRoot.appendingPathComponent("systemd/fontregd.conf").path
        let parsed = try configuration(["--config", sample])
        var expected = DaemonConfiguration()
        expected.configFile = sample
        expected.configFileGiven = true
        #expect(parsed == expected)
    }

    @Test func aHashInsideAValueIsKeptAndOneAfterASpaceStartsAComment() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("fontregd.conf")
        try "fonts = /srv/c#sharp\t# the C# fonts\nverbose = yes# not a comment without a space\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
            throws: ConfigurationError.invalidValue(
                setting: "verbose", value: "yes# not a comment without a space", expected: "yes or no")
        ) {
            try configuration(["--config", file])
        }
        try "fonts = /srv/c#sharp\t# the C# fonts\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try configuration(["--config", file]).fontDirectories == ["/srv/c#sharp"])
    }

    @Test func relativePathsOnTheCommandLineAreTakenFromTheWorkingDirectory() throws {
        let parsed = try configuration(["--fonts", "fonts", "--rules", "./fonts/rules", "--socket", "run/s.sock"])
        let cwd = FileManager.default.currentDirectoryPath
        #expect(parsed.fontDirectories == [cwd + "/fonts"])
        #expect(parsed.rulesDirectory == cwd + "/fonts/rules")
        #expect(parsed.socketPath == cwd + "/run/s.sock")
    }

    @Test func aRelativePathInTheConfigFileIsRefused() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("fontregd.conf")
        try "fonts = fonts\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try configuration(["--config", file]) }
    }

    @Test func aYesNoSettingAloneMeansYesAndItsNoFormMeansNo() throws {
        #expect(try configuration(["--verbose"]).verbose)
        #expect(try configuration(["--verbose", "--fonts", "/srv/a"]).verbose)
        #expect(try !configuration(["--verbose", "no"]).verbose)
        #expect(try !configuration(["--no-watch"]).watch)
        #expect(try !configuration(["--no-system-fonts"]).includeSystemFonts)
    }

    @Test func aValueFlagFollowedByAnotherFlagReportsTheMissingValue() {
        #expect(throws: ConfigurationError.missingValue(flag: "--fonts")) {
            try configuration(["--fonts", "--rules", "/srv/rules"])
        }
    }

    @Test func anInstalledBinaryServesTheFontsAndRulesOfItsPrefix() throws {
        let prefix = TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: prefix.path + "/share/fontreg/fonts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: prefix.path + "/share/fontreg/rules", withIntermediateDirectories: true)
        let layout = try #require(InstallLayout.around(executable: prefix.path + "/bin/fontregd"))
        #expect(layout.fontsDirectory == prefix.path + "/share/fontreg/fonts")
        #expect(layout.rulesDirectory == prefix.path + "/share/fontreg/rules")
        let defaults = DaemonConfiguration(layout: layout)
        #expect(defaults.fontDirectories == [prefix.path + "/share/fontreg/fonts"])
        #expect(defaults.rulesDirectory == prefix.path + "/share/fontreg/rules")
        #expect(defaults.allowedRoots.contains(prefix.path + "/share/fontreg/fonts"))
        #expect(InstallLayout.around(executable: prefix.path + "/libexec/fontregd") == nil)
        #expect(InstallLayout.around(executable: BuildProducts.directory.path + "/fontregd") == nil)
    }

    @Test func theManPageNamesEverySettingTheVersionAndTheDate() throws {
        let page = try String(
            contentsOf: BuildProducts.packageRoot.appendingPathComponent("man/fontregd.8"), encoding: .utf8)
        #expect(page.contains(".TH FONTREGD 8 \"\(FontRegVersion.date)\" \"fontreg \(FontRegVersion.current)\""))
        for setting in DaemonConfiguration.settings {
            let flag = ".BI \\-\\-" + setting.name.replacingOccurrences(of: "-", with: "\\-") + " \" " + setting.value
            #expect(page.contains(flag), "fontregd.8 lacks \(setting.name)")
        }
        #expect(page.contains(".nh"), "options must not be hyphenated")
    }
}

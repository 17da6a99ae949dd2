import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCLI

/// How an audit ends (issue 25): nothing audited is never success, a coverage gap is never "Complete",
/// stand-ins ship, and declared families no style uses are named. In process, on the bundled fonts.
@Suite struct AuditOutcomeTests {
    static func fixture(_ name: String) -> String { AuditFixtures.tokens("outcome/\(name)") }

    static let lato = AuditFixtures.bundledFontDirectories[1]

    /// Lato with only its 400, 500 and 700 (and its licence): a family without a 600.
    static func latoWithoutSemibold() throws -> String {
        let folder = AuditFixtures.temporaryDirectory().appendingPathComponent("lato")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["Lato-Regular.ttf", "Lato-Medium.ttf", "Lato-Bold.ttf", "OFL.txt"] {
            try FileManager.default.copyItem(
                atPath: (lato as NSString).appendingPathComponent(name),
                toPath: folder.appendingPathComponent(name).path)
        }
        return folder.path
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: Nothing audited

    @Test func tokenFilesWithoutATextStyleExit65AndNameTheFilesAndTheFormatsUnderstood() throws {
        let input = Self.fixture("colors.tokens.json")
        let result = AuditCommand.run(arguments: [input, "--fonts", Self.lato])
        #expect(result.exitCode == 65)
        #expect(ExitStatus.dataError.rawValue == 65)
        #expect(result.report?.status == .nothingAudited)
        #expect(result.report?.complete == false)
        #expect(!result.stdout.contains("Complete"))
        #expect(result.stdout.contains("NOTHING AUDITED: no text style found in"))
        #expect(result.stdout.contains("colors.tokens.json"))
        for format in AuditInputFormat.allCases { #expect(result.stdout.contains(format.rawValue)) }
        #expect(result.stdout.contains("Pass the files or folder that define the typography"))
    }

    @Test func theBuiltBinaryExits65ForAnAuditOfNothing() throws {
        let run = try FontResolveProcess.run([
            "audit", "Tests/Fixtures/tokens/outcome/colors.tokens.json", "--fonts", "fonts/Lato",
        ])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stdout.contains("NOTHING AUDITED: no text style found in"))
        #expect(!run.stdout.contains("Complete"))
    }

    @Test(arguments: ["--json", "--markdown", "--format github", "--format sarif"])
    func noOutputFormatCallsAnAuditOfNothingComplete(flag: String) throws {
        let arguments =
            [Self.fixture("colors.tokens.json"), "--fonts", Self.lato] + flag.split(separator: " ").map(String.init)
        let result = AuditCommand.run(arguments: arguments)
        #expect(result.exitCode == 65)
        #expect(!result.stdout.lowercased().contains("complete") || flag == "--json")
        #expect(result.stderr.contains("no text style found"))
        switch flag {
        case "--json":
            let root = try Self.json(result.stdout)
            #expect(root["complete"] as? Bool == false)
            #expect(root["status"] as? String == "nothingAudited")
        case "--markdown":
            #expect(result.stdout.hasPrefix("## Font audit: ⚠️ nothing audited"))
            #expect(!result.stdout.contains("✅"))
        case "--format github":
            #expect(result.stdout.hasPrefix("::warning file="))
            #expect(result.stdout.contains("title=nothing audited"))
            #expect(!result.stdout.contains("::notice title=fontresolve audit::0 of 0"))
        default:
            let root = try Self.json(result.stdout)
            let runs = try #require(root["runs"] as? [[String: Any]])
            let results = try #require(runs.first?["results"] as? [[String: Any]])
            #expect(results.count == 1)
            #expect(results.first?["level"] as? String == "warning")
            #expect(results.first?["ruleId"] as? String == "fontreg/no-text-style")
        }
    }

    @Test func anInputFileThatContributesNothingIsAWarningNamingIt() throws {
        let idle = Self.fixture("colors.tokens.json")
        let arguments = [Self.fixture("lato-400.tokens.json"), idle, "--fonts", Self.lato]
        let text = AuditCommand.run(arguments: arguments)
        #expect(text.exitCode == 0)
        #expect(text.report?.unusedInputs == [idle])
        #expect(text.stdout.contains("Warning: \(AuditFormatting.path(idle)) contributes nothing"))
        let github = AuditCommand.run(arguments: arguments + ["--format", "github"])
        #expect(github.stdout.contains("::warning file=\(AuditGitHubRenderer.escapeProperty(idle))"))
        let sarif = try Self.json(AuditCommand.run(arguments: arguments + ["--format", "sarif"]).stdout)
        let results = try #require((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(
            results.contains {
                $0["level"] as? String == "warning" && $0["ruleId"] as? String == "fontreg/no-text-style"
            })
    }

    // MARK: Coverage gaps

    @Test func aSampleNoFaceDrawsExitsOneAndNoFormatSaysComplete() throws {
        let arguments = [
            Self.fixture("lato-400.tokens.json"), "--fonts", Self.lato, "--lang", "ja", "--sample", "Hello 世界",
        ]
        let text = AuditCommand.run(arguments: arguments)
        #expect(text.exitCode == 1)
        #expect(text.report?.status == .incomplete)
        #expect(!text.stdout.contains("Complete: every required face is there."))
        let last = text.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("INCOMPLETE: no registered face draws U+4E16 世, U+754C 界"))
        let json = try Self.json(AuditCommand.run(arguments: arguments + ["--json"]).stdout)
        #expect(json["complete"] as? Bool == false)
        #expect(json["status"] as? String == "incomplete")
        let markdown = AuditCommand.run(arguments: arguments + ["--markdown"]).stdout
        #expect(markdown.hasPrefix("## Font audit: ❌ 2 sample characters no face draws"))
        let github = AuditCommand.run(arguments: arguments + ["--format", "github"]).stdout
        #expect(github.contains("INCOMPLETE: no registered face draws"))
    }

    // MARK: Stand-ins

    @Test func aFaceStandingInForAMissingWeightShipsAndIsNotDropped() throws {
        let fonts = try Self.latoWithoutSemibold()
        let result = AuditCommand.run(arguments: [Self.fixture("stand-in.tokens.json"), "--fonts", fonts, "--json"])
        #expect(result.exitCode == 1)
        let report = try #require(result.report)
        let style = try #require(report.families.first?.styles.first { $0.style == "normal" })
        #expect(style.missing.map(\.weight) == [600])
        #expect(style.standIns.map(\.weight) == [600])
        #expect(style.standIns.first?.postscriptName == "Lato-Bold")
        #expect(style.standIns.first?.roles == ["boldText"])
        #expect(!style.unneeded.contains { $0.file.hasSuffix("Lato-Bold.ttf") })
        #expect(report.totals.shipFiles == 3)
        #expect(report.totals.unneededFiles == 0)
        let text = AuditCommand.run(arguments: [Self.fixture("stand-in.tokens.json"), "--fonts", fonts]).stdout
        #expect(text.contains("ship Lato-Bold ("))
        #expect(text.contains("Lato-Bold.ttf) as the stand-in for the missing normal 600 (Bold Text)"))
        let markdown = AuditCommand.run(arguments: [
            Self.fixture("stand-in.tokens.json"), "--fonts", fonts, "--markdown",
        ])
        #expect(markdown.stdout.contains("- ships `Lato-Bold.ttf` as the stand-in for the missing normal 600"))
        #expect(!markdown.stdout.contains("Drop "))
        #expect(!text.contains("drop — "))
    }

    @Test func everyEmitterAndCopyFontsShipTheStandIn() throws {
        let fonts = try Self.latoWithoutSemibold()
        let out = AuditFixtures.temporaryDirectory()
        let copies = out.appendingPathComponent("copied").path
        var arguments = [
            Self.fixture("stand-in.tokens.json"), "--fonts", fonts, "--out", out.path, "--copy-fonts", copies,
        ]
        for format in AuditEmitFormat.allCases { arguments += ["--emit", format.rawValue] }
        let result = AuditCommand.run(arguments: arguments)
        #expect(result.exitCode == 1, "\(result.stderr)")
        func text(_ path: String) throws -> String {
            try String(contentsOfFile: out.appendingPathComponent(path).path, encoding: .utf8)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: copies).sorted() == [
                "Lato-Bold.ttf", "Lato-Medium.ttf", "Lato-Regular.ttf", "OFL.txt",
            ])
        let css = try text(CSSFontFaceEmitter.path)
        #expect(css.contains("/* Lato-Bold: stands in for the missing 600 */"))
        #expect(css.contains("Lato-Bold.ttf\") format(\"truetype\");\n  font-weight: 700;"))
        let android = try text("android/res/font/lato.xml")
        #expect(android.contains("android:fontWeight=\"700\""))
        #expect(
            FileManager.default.fileExists(atPath: out.appendingPathComponent("android/res/font/lato_bold.ttf").path))
        let ios = try text("ios/FontRegLatoFontFamily.swift")
        #expect(try text(IOSFontEmitter.plistPath).contains("<string>Lato-Bold.ttf</string>"))
        #expect(ios.contains("[.regular, .medium, .semibold]"))
        #expect(ios.contains("case .semibold: return \"Bold\""))
        #expect(ios.contains("// .semibold: no face of weight 600 ships; Lato-Bold (700) stands in."))
        let flutter = try text(FlutterFontEmitter.path)
        #expect(flutter.contains("asset: \"fonts/Lato-Bold.ttf\"\n          weight: 700"))
        let tokens = try Self.json(try text(StyleDictionaryEmitter.path))
        let faces = try #require(
            ((tokens["font"] as? [String: Any])?["face"] as? [String: Any])?["lato"] as? [String: Any])
        let bold = try #require(faces["700"] as? [String: Any])
        let face = try #require((bold["$extensions"] as? [String: Any])?["io.fontreg.face"] as? [String: Any])
        #expect(face["postscriptName"] as? String == "Lato-Bold")
        #expect(face["standsInFor"] as? [Int] == [600])
    }

    // MARK: Declared but unused families

    @Test func aDeclaredFamilyNoStyleUsesIsReportedInTextAndJSON() throws {
        let arguments = [Self.fixture("unused-family.tokens.json"), "--fonts", Self.lato]
        let text = AuditCommand.run(arguments: arguments)
        #expect(text.exitCode == 0)
        #expect(text.stdout.contains("Declared but used by no text style (not audited, not shipped):"))
        #expect(text.stdout.contains("  Inter, declared at "))
        #expect(text.stdout.contains("(font.family.legacy)"))
        #expect(!text.stdout.contains("Lato, declared at"))
        let json = try Self.json(AuditCommand.run(arguments: arguments + ["--json"]).stdout)
        let unused = try #require(json["unusedFamilies"] as? [[String: Any]])
        #expect(unused.map { $0["family"] as? String } == ["Inter"])
        #expect((unused.first?["declaredAt"] as? [String])?.first?.hasSuffix("(font.family.legacy)") == true)
    }
}

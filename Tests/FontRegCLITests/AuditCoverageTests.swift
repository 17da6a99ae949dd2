import FontRegTestSupport
import Foundation
import Testing

/// The audit's coverage check (issue 12): `--lang`/`--sample` and `$locales`/`$samples`, with real Debian fonts,
/// the same in process and against the daemon.
@Suite(.serialized) struct AuditCoverageTests {
    /// Lato (regular, medium, bold, heavy) and Noto Sans CJK (regular, bold): just what the check needs.
    static let fontFiles = [
        "/usr/share/fonts/truetype/lato/Lato-Regular.ttf", "/usr/share/fonts/truetype/lato/Lato-Medium.ttf",
        "/usr/share/fonts/truetype/lato/Lato-Bold.ttf", "/usr/share/fonts/truetype/lato/Lato-Heavy.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    ]

    /// A folder of links to ``fontFiles`` and a token set using Lato 400 and 700.
    static func setUp(_ directory: TemporaryDirectory, tokens: String) throws -> (fonts: String, tokens: String) {
        let fonts = directory.file("fonts")
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        for file in fontFiles {
            try FileManager.default.createSymbolicLink(
                atPath: fonts + "/" + (file as NSString).lastPathComponent, withDestinationPath: file)
        }
        let path = directory.file("typography.tokens.json")
        try tokens.write(toFile: path, atomically: true, encoding: .utf8)
        return (fonts, path)
    }

    static let tokens = """
        { "typography": {
            "body": { "$type": "typography", "$value": { "fontFamily": "Lato", "fontWeight": 400 } },
            "strong": { "$type": "typography", "$value": { "fontFamily": "Lato", "fontWeight": 700 } } } }
        """

    /// The `coverage` member of a `--json` report.
    static func coverage(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(object?["coverage"] as? [[String: Any]])
    }

    /// `(postscriptName, role) → (stand-in, weight)` of each gap.
    static func standIns(_ gaps: [[String: Any]]) -> [String: String] {
        var result: [String: String] = [:]
        for gap in gaps {
            let key = "\(gap["postscriptName"] ?? "") \(gap["role"] ?? "")"
            let standIns = (gap["standIns"] as? [[String: Any]]) ?? []
            result[key] = standIns.map { "\($0["postscriptName"] ?? "") \($0["weight"] ?? "")" }.joined(separator: ",")
        }
        return result
    }

    @Test func latoLacksHanAndNotoSansCJKJPStandsInAtTheRightWeightsBoldTextIncluded() throws {
        let directory = TemporaryDirectory()
        let (fonts, tokens) = try Self.setUp(directory, tokens: Self.tokens)
        let output = try FontResolveProcess.run([
            "audit", tokens, "--fonts", fonts, "--lang", "ja", "--sample", "Hello 世界", "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let gaps = try Self.coverage(output.stdout)
        #expect(
            Self.standIns(gaps) == [
                "Lato-Regular used": "NotoSansCJKjp-Regular 400", "Lato-Medium boldText": "NotoSansCJKjp-Bold 700",
                "Lato-Bold used": "NotoSansCJKjp-Bold 700", "Lato-Heavy boldText": "NotoSansCJKjp-Bold 700",
            ])
        for gap in gaps {
            #expect(gap["missingCharacters"] as? [String] == ["U+4E16 世", "U+754C 界"])
            #expect(gap["missingLanguages"] as? [String] == ["ja"])
        }
    }

    @Test func theTokenFileCanNameLocalesAndSamples() throws {
        let directory = TemporaryDirectory()
        let withSamples = Self.tokens.replacingOccurrences(
            of: "{ \"typography\"", with: "{ \"$locales\": [\"ja\"], \"$samples\": [\"Hello 世界\"], \"typography\"")
        let (fonts, tokens) = try Self.setUp(directory, tokens: withSamples)
        let fromFile = try FontResolveProcess.run(["audit", tokens, "--fonts", fonts, "--json"])
        let fromOptions = try FontResolveProcess.run([
            "audit", tokens, "--fonts", fonts, "--lang", "ja", "--sample", "Hello 世界", "--json",
        ])
        let gaps = try Self.coverage(fromFile.stdout)
        #expect(gaps.count == 4)
        #expect(Self.standIns(gaps) == Self.standIns(try Self.coverage(fromOptions.stdout)))
    }

    @Test func everyOutputFormatNamesTheStandIn() throws {
        let directory = TemporaryDirectory()
        let (fonts, tokens) = try Self.setUp(directory, tokens: Self.tokens)
        let base = ["audit", tokens, "--fonts", fonts, "--lang", "ja", "--sample", "世界"]
        for format in [[], ["--markdown"], ["--format", "sarif"], ["--format", "github"]] {
            let output = try FontResolveProcess.run(base + format)
            #expect(output.status == 0, "\(format): \(output.stderr)")
            #expect(output.stdout.contains("NotoSansCJKjp-Bold"), "\(format)")
        }
        let github = try FontResolveProcess.run(base + ["--format", "github"])
        #expect(github.stdout.contains("::warning "))
        let html = directory.file("report.html")
        _ = try FontResolveProcess.run(base + ["--report", html])
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("NotoSansCJKjp-Bold"))
    }

    @Test func theDaemonGivesTheSameFindingsAsTheEmbeddedAudit() throws {
        let directory = TemporaryDirectory()
        let (fonts, tokens) = try Self.setUp(directory, tokens: Self.tokens)
        let daemon = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
        let arguments = ["audit", tokens, "--lang", "ja", "--sample", "Hello 世界", "--json"]
        let remote = try FontResolveProcess.run(arguments + ["--socket", daemon.socketPath])
        let local = try FontResolveProcess.run(arguments + ["--fonts", fonts])
        #expect(remote.status == 0, "\(remote.stderr)")
        let remoteGaps = try Self.coverage(remote.stdout)
        let localGaps = try Self.coverage(local.stdout)
        #expect(Self.standIns(remoteGaps) == Self.standIns(localGaps))
        #expect(
            remoteGaps.map { $0["missingCharacters"] as? [String] }
                == localGaps.map { $0["missingCharacters"] as? [String] })
        #expect(
            remoteGaps.map { $0["missingLanguages"] as? [String] }
                == localGaps.map { $0["missingLanguages"] as? [String] })
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCLI
@testable import FontRegJSON

/// The wiring `--emit` writes, checked by the tools that consume it: Chromium, an XML parser,
/// `swiftc -parse`, a YAML parser and the audit's own DTCG reader; and checked in as snapshots.
@Suite(.serialized) struct AuditWiringTests {
    /// The example token set shipped in the repository (JSON5, references across two files).
    static let tokens = AuditFixtures.repositoryRoot.appendingPathComponent("docs/examples/tokens").path

    /// One emission of every format over the bundled fonts, into a fresh folder, with the fonts copied.
    struct Emission: Sendable {
        var out: URL
        var result: AuditCommand.Result
        var report: AuditReport
    }

    static let emission: Emission = {
        let out = AuditFixtures.temporaryDirectory()
        let emits = AuditEmitFormat.allCases.flatMap { ["--emit", $0.rawValue] }
        let result = AuditCommand.run(
            arguments: [tokens] + AuditFixtures.bundledFontDirectories.flatMap { ["--fonts", $0] } + emits + [
                "--out", out.path, "--copy-fonts", out.appendingPathComponent("fonts").path,
            ])
        return Emission(out: out, result: result, report: result.report!)
    }()

    /// Every face the report ships, as (family as the tokens name it, weight, style, file name).
    static var shippedFaces: [(family: String, weight: Int, style: String, file: String)] {
        emission.report.families.flatMap { family in
            family.styles.flatMap { style in
                style.faces.map { (family.family, $0.weight, style.style, ($0.file as NSString).lastPathComponent) }
            }
        }
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: emission.out.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test func emissionSucceedsAndCopiesExactlyTheShippedFilesWithTheirLicences() throws {
        #expect(Self.emission.result.exitCode == 0, "\(Self.emission.result.stderr)")
        let copied = try FileManager.default.contentsOfDirectory(
            atPath: Self.emission.out.appendingPathComponent("fonts").path
        ).sorted()
        let expected = (Set(Self.shippedFaces.map(\.file)).sorted() + ["Inter-OFL.txt", "Lato-OFL.txt"]).sorted()
        #expect(copied == expected)
        #expect(copied.contains("Lato-Heavy.ttf"))  // 800 for Bold Text under the 700 title
        #expect(!copied.contains("Lato-Black.ttf"))
    }

    @Test func cssLoadsInChromiumAndEveryUsedFaceIsTheExpectedFile() throws {
        guard AuditHTMLReportTests.chromium != nil else {
            Issue.record("chromium is not installed; run scripts/setup-deps.sh --test")
            return
        }
        let faces = Self.shippedFaces
        // For each required face: text drawn with the emitted CSS, and a probe face loaded straight
        // from the expected file; equal widths of a long text mean the CSS picked that file.
        var paragraphs = ""
        var checks: [String] = []
        for (index, face) in faces.enumerated() {
            let font = "\(face.style == "normal" ? "" : face.style + " ")\(face.weight) 40px"
            paragraphs +=
                "<p style=\"font: \(font) '\(face.family)'\">Hamburgefonstiv \(face.family) \(face.weight)</p>\n"
            checks.append(
                "[\"\(face.family)\", \(face.weight), \"\(face.style)\", \"fonts/\(face.file)\", \"probe\(index)\", \"\(font)\"]"
            )
        }
        let page = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><link rel="stylesheet" href="css/fonts.css"></head>
            <body>\(paragraphs)<pre id="result">pending</pre><script>
            const checks = [\(checks.joined(separator: ",\n"))];
            const sample = "Hamburgefonstiv QWERTY 0123456789 The quick brown fox";
            document.fonts.ready.then(async () => {
              const css = [];
              document.fonts.forEach(f => css.push([f.family.replace(/"/g, ""), f.weight, f.style, f.status].join("|")));
              const context = document.createElement("canvas").getContext("2d");
              const compared = [];
              for (const [family, weight, style, url, probe, font] of checks) {
                const face = new FontFace(probe, "url(" + url + ")");
                try { await face.load(); document.fonts.add(face); } catch (e) { compared.push(family + " " + weight + " probe failed"); continue; }
                context.font = font + " '" + family + "', monospace";
                const drawn = context.measureText(sample).width;
                context.font = "40px " + probe + ", monospace";
                const expected = context.measureText(sample).width;
                compared.push([family, weight, style, Math.abs(drawn - expected) < 0.01 ? "same" : "different " + drawn + " " + expected].join("|"));
              }
              document.getElementById("result").textContent = JSON.stringify({css, compared});
            });
            </script></body></html>
            """
        let pageURL = Self.emission.out.appendingPathComponent("page.html")
        try Data(page.utf8).write(to: pageURL)
        let dom = try AuditHTMLReportTests.runChromium([
            "--virtual-time-budget=10000", "--dump-dom", pageURL.absoluteString,
        ])
        let json = try #require(
            dom.range(of: "<pre id=\"result\">").map { dom[$0.upperBound...].prefix { $0 != "<" } })
        let result = try JSONParser.parse(Array(String(json).replacingOccurrences(of: "&quot;", with: "\"").utf8))
        let css = result["css"]?.arrayValue?.compactMap(\.stringValue) ?? []
        // Every @font-face rule is a required face, and every one was used and loaded.
        #expect(css.count == faces.count)
        for face in faces {
            #expect(css.contains("\(face.family)|\(face.weight)|\(face.style)|loaded"), "\(css)")
        }
        let compared = result["compared"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(compared.count == faces.count)
        for face in faces {
            #expect(compared.contains("\(face.family)|\(face.weight)|\(face.style)|same"), "\(compared)")
        }
    }

    @Test func androidXMLIsWellFormedAndEveryFontReferenceExists() throws {
        let folder = Self.emission.out.appendingPathComponent("android/res/font")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let xmlFiles = files.filter { $0.hasSuffix(".xml") }.sorted()
        #expect(xmlFiles == ["inter.xml", "lato.xml"])
        let script = """
            import sys, os, re, xml.etree.ElementTree as ET
            folder = sys.argv[1]
            names = {os.path.splitext(f)[0] for f in os.listdir(folder) if not f.endswith('.xml')}
            for f in os.listdir(folder):
                if not re.fullmatch(r'[a-z][a-z0-9_]*\\.[a-z0-9]+', f): print('illegal name', f)
            count = 0
            for f in sorted(os.listdir(folder)):
                if not f.endswith('.xml'): continue
                root = ET.parse(os.path.join(folder, f)).getroot()
                assert root.tag == 'font-family', root.tag
                for font in root:
                    count += 1
                    for ns in ('http://schemas.android.com/apk/res/android', 'http://schemas.android.com/apk/res-auto'):
                        ref = font.get('{%s}font' % ns)
                        if not ref.startswith('@font/') or ref[6:] not in names: print('missing', ref)
            print('fonts', count)
            """
        let run = try runCommand(["/usr/bin/env", PythonTools.python, "-c", script, folder.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "fonts \(Self.shippedFaces.count)\n")
    }

    @Test func iosSwiftParsesAndNamesTheRealPostScriptNames() throws {
        let swiftc = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let compiler = try #require(swiftc, "swiftc not found")
        let folder = Self.emission.out.appendingPathComponent("ios")
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(
            sources.sorted() == [
                "FontRegInterFontFamily.swift", "FontRegLatoFontFamily.swift", "FontRegLatoItalicFontFamily.swift",
                "FontRegTypography.swift",
            ])
        for source in sources {
            let run = try runCommand([compiler, "-parse", folder.appendingPathComponent(source).path])
            #expect(run.status == 0, "\(source): \(run.stderr)")
        }
        // The composed names are the files' PostScript names: Lato's 800 is "Heavy", its regular italic "Lato-Italic".
        let lato = try Self.text("ios/FontRegLatoFontFamily.swift")
        #expect(lato.contains("case .extraBold: return \"Heavy\""))
        let italic = try Self.text("ios/FontRegLatoItalicFontFamily.swift")
        #expect(italic.contains("case .regular: return \"\""))
        #expect(italic.contains("let fontNameSuffix = \"Italic\""))
        let plist = try Self.text("ios/UIAppFonts.plist")
        for file in Set(Self.shippedFaces.map(\.file)) { #expect(plist.contains("<string>\(file)</string>")) }
    }

    @Test func swiftcParseRejectsBrokenSourceSoTheCheckCanFail() throws {
        let folder = AuditFixtures.temporaryDirectory()
        let broken = folder.appendingPathComponent("Broken.swift")
        try Data("struct Broken: FontFamily { let familyName = \"Lato\" \n".utf8).write(to: broken)
        let run = try runCommand(["/opt/swift/usr/bin/swiftc", "-parse", broken.path])
        #expect(run.status != 0)
    }

    @Test func pubspecParsesAsYAMLWithAWeightAndStylePerAsset() throws {
        let script = """
            import sys, yaml, json
            data = yaml.safe_load(open(sys.argv[1]))
            out = []
            for family in data['flutter']['fonts']:
                for font in family['fonts']:
                    out.append('%s|%s|%s|%s' % (family['family'], font.get('weight'), font.get('style', 'normal'), font['asset']))
            print(json.dumps(sorted(out)))
            """
        let path = Self.emission.out.appendingPathComponent("flutter/pubspec.fonts.yaml").path
        let run = try runCommand(["/usr/bin/env", PythonTools.python, "-c", script, path])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = Self.shippedFaces.map { "\($0.family)|\($0.weight)|\($0.style)|fonts/\($0.file)" }.sorted()
        let parsed = try JSONParser.parse(Array(run.stdout.utf8)).arrayValue?.compactMap(\.stringValue)
        #expect(parsed == expected)
        // Every asset exists in the copied fonts folder.
        for face in Self.shippedFaces {
            #expect(
                FileManager.default.fileExists(
                    atPath: Self.emission.out.appendingPathComponent("fonts/\(face.file)").path))
        }
    }

    @Test func styleDictionaryTokensReadBackAsTheSameFaces() throws {
        let path = Self.emission.out.appendingPathComponent(StyleDictionaryEmitter.path).path
        let document = try TypographyReader.read(path: path)
        #expect(document.format == .dtcg)
        let result = AuditCommand.run(
            arguments: [path] + AuditFixtures.bundledFontDirectories.flatMap { ["--fonts", $0] } + ["--json"])
        #expect(result.exitCode == 0)
        let again = try #require(result.report)
        func used(_ report: AuditReport) -> [String] {
            report.families.flatMap { family in
                family.styles.flatMap { style in style.used.map { "\(family.family) \(style.style) \($0)" } }
            }.sorted()
        }
        let shipped = Self.shippedFaces.map { "\($0.family) \($0.style) \($0.weight)" }.sorted()
        #expect(used(again) == shipped)
        // Each token names the file it came from, relative to the token file, and the file is there.
        let root = try SourceJSONParser.parse(try Self.text(StyleDictionaryEmitter.path))
        let face = try #require(root["font"]?["face"]?["lato"]?["800"]?["$extensions"]?["io.fontreg.face"])
        #expect(face["postscriptName"]?.stringValue == "Lato-Heavy")
        let file = try #require(face["file"]?.stringValue)
        let folder = Self.emission.out.appendingPathComponent("style-dictionary")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).standardizedFileURL.path))
    }

    @Test(arguments: [
        CSSFontFaceEmitter.path, "android/res/font/lato.xml", "android/res/font/inter.xml", IOSFontEmitter.plistPath,
        "ios/FontRegLatoFontFamily.swift", "ios/FontRegLatoItalicFontFamily.swift", "ios/FontRegInterFontFamily.swift",
        FlutterFontEmitter.path, StyleDictionaryEmitter.path, AndroidFontEmitter.stylesPath,
        "ios/FontRegTypography.swift", FlutterFontEmitter.stylesPath,
    ])
    func emittedFileMatchesItsSnapshot(path: String) throws {
        try AuditSnapshotTests.assertSnapshot(try Self.text(path), named: "wiring/\(path)")
    }

    @Test func readmeExampleRunsAsWrittenWithTheRealBinary() throws {
        let folder = AuditFixtures.temporaryDirectory()
        let report = folder.appendingPathComponent("report.html").path
        let wiring = folder.appendingPathComponent("wiring").path
        let fonts = AuditFixtures.repositoryRoot.appendingPathComponent("fonts").path
        let output = try FontResolveProcess.run([
            "audit", Self.tokens, "--fonts", fonts, "--report", report, "--emit", "css", "--out", wiring,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Complete: every required face is there."))
        #expect(output.stderr.contains("wrote the HTML report to \(report)"))
        #expect(output.stderr.contains("wrote 1 file of wiring to \(wiring)"))
        let css = try String(contentsOfFile: wiring + "/css/fonts.css", encoding: .utf8)
        // Without --copy-fonts the URLs point at the bundled files themselves.
        #expect(css.contains("fonts/Lato/Lato-Heavy.ttf\") format(\"truetype\")"))
    }

    @Test func emitWithoutOutIsAUsageError() {
        let result = AuditCommand.run(arguments: [Self.tokens, "--emit", "css"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("--out DIR"))
        let unknown = AuditCommand.run(arguments: [Self.tokens, "--emit", "qt", "--out", "/tmp"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.stderr.contains("css, android, ios, flutter, style-dictionary"))
    }
}

import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

/// Face metrics (issue 27) against fontTools' reading of the same files.
///
/// Uses the Debian fonts Lato, Roboto, Inter and Noto Sans (scripts/setup-deps.sh --test), and a
/// copy of the variable fixture given an `MVAR` table that moves its typo, Windows, cap-height
/// and x-height values, built by the script below with fontTools.
@Suite("Face metrics")
struct FaceMetricsTests {
    static let debianFiles = [
        "/usr/share/fonts/truetype/lato/Lato-Regular.ttf", "/usr/share/fonts/truetype/lato/Lato-Bold.ttf",
        "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
        "/usr/share/fonts/opentype/inter/Inter-Regular.otf", "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Italic.ttf",
    ]

    /// Prints, for each argument (`PATH`, or `PATH@wght=700` for an instance), fontTools' metrics
    /// as one JSON line; with `--mvar SRC DST` first writes DST, a copy of SRC with an MVAR table.
    static let script = """
        import json, sys
        from fontTools.ttLib import TTFont
        from fontTools.ttLib.tables import otTables as ot
        from fontTools.varLib import builder, instancer
        args = sys.argv[1:]
        if args[0] == '--mvar':
            font = TTFont(args[1])
            tags = ['hasc', 'hdsc', 'hlgp', 'hcla', 'hcld', 'cpht', 'xhgt']
            deltas = [[100], [-40], [30], [120], [60], [50], [-20]]
            regions = builder.buildVarRegionList([{'wght': (0, 1, 1)}], ['wght'])
            store = builder.buildVarStore(regions, [builder.buildVarData([0], deltas, optimize=False)])
            mvar = font['MVAR'].table
            mvar.VarStore = store
            records = []
            for i, tag in enumerate(tags):
                record = ot.MetricsValueRecord()
                record.ValueTag = tag
                record.VarIdx = i
                records.append(record)
            mvar.ValueRecord = records
            mvar.ValueRecordCount = len(records)
            font.save(args[2])
            args = args[3:]
        for arg in args:
            path, _, where = arg.partition('@')
            font = TTFont(path)
            if where:
                tag, value = where.split('=')
                font = instancer.instantiateVariableFont(font, {tag: float(value)})
            os2, hhea = font['OS/2'], font['hhea']
            print(json.dumps({
                'unitsPerEm': font['head'].unitsPerEm,
                'hhea': {'ascender': hhea.ascent, 'descender': hhea.descent, 'lineGap': hhea.lineGap},
                'typo': {'ascender': os2.sTypoAscender, 'descender': os2.sTypoDescender,
                         'lineGap': os2.sTypoLineGap},
                'win': {'ascent': os2.usWinAscent, 'descent': os2.usWinDescent},
                'useTypoMetrics': bool(os2.fsSelection & 0x80),
                'capHeight': os2.sCapHeight if os2.version >= 2 else 0,
                'xHeight': os2.sxHeight if os2.version >= 2 else 0,
            }))
        """

    /// fontTools' metrics for each argument of ``script``.
    static func fontTools(_ arguments: [String]) throws -> [FaceMetrics] {
        let run = try runCommand(["/usr/bin/env", PythonTools.python, "-c", script] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return try run.stdout.split(separator: "\n").map { line in
            try JSONDecoder().decode(FaceMetrics.self, from: Data(line.utf8))
        }
    }

    static func registry(files: [String], name: String) throws -> FontRegistry {
        let cache = Fixtures.temporaryDirectory() + "/\(name)"
        return try FontRegistry(configuration: RegistryConfiguration(fontFiles: files, cacheDirectory: cache))
    }

    @Test("Every Debian face's metrics equal fontTools' reading of its head, hhea and OS/2 tables")
    func debianMetricsEqualFontTools() throws {
        let expected = try Self.fontTools(Self.debianFiles)
        let faces = try Self.registry(files: Self.debianFiles, name: "debian").index.faces
        for (file, metrics) in zip(Self.debianFiles, expected) {
            let face = try #require(faces.first { $0.file == file && $0.instance == nil })
            #expect(face.metrics == metrics, "\(file)")
        }
        #expect(expected.count == Self.debianFiles.count)
    }

    @Test("Lato keeps its descenders negative in hhea and typo and positive in usWinDescent, typo bit set")
    func latoSignsAsStored() throws {
        let faces = try Self.registry(files: [Self.debianFiles[0]], name: "lato").index.faces
        let metrics = try #require(faces.first).metrics
        #expect(metrics.unitsPerEm == 2000)
        #expect(metrics.hhea == LineMetrics(ascender: 1974, descender: -426, lineGap: 0))
        #expect(metrics.typo == LineMetrics(ascender: 1610, descender: -390, lineGap: 400))
        #expect(metrics.win.descent > 0)
        #expect(metrics.useTypoMetrics)
    }

    @Test("A named instance carries its MVAR-varied metrics, as fontTools' instancer computes them")
    func namedInstanceAppliesMVAR() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let source = Fixtures.fonts + "/variable/FixtureVar[wght].ttf"
        let copy = directory + "/FixtureMVAR[wght].ttf"
        let expected = try Self.fontTools(["--mvar", source, copy, copy, copy + "@wght=700", copy + "@wght=900"])
        #expect(expected.count == 3)
        let faces = try Self.registry(files: [copy], name: "mvar").index.faces
        let base = try #require(faces.first { $0.instance == nil })
        let bold = try #require(faces.first { $0.instance != nil && $0.weight == 700 })
        let black = try #require(faces.first { $0.instance != nil && $0.weight == 900 })
        #expect(base.metrics == expected[0])
        #expect(bold.metrics == expected[1])
        #expect(black.metrics == expected[2])
        #expect(black.metrics.typo.ascender == base.metrics.typo.ascender + 100)
    }

    @Test("Metrics survive the index file: a warm start reads the same values back")
    func metricsSurviveTheIndexFile() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let configuration = RegistryConfiguration(fontFiles: Self.debianFiles, cacheDirectory: cache)
        let cold = try FontRegistry(configuration: configuration).index.faces
        let warm = try FontRegistry(configuration: configuration).index.faces
        #expect(cold.map(\.metrics) == warm.map(\.metrics))
        #expect(warm.allSatisfy { $0.metrics.unitsPerEm > 0 })
    }

    @Test("An index file of an earlier layout, without metrics, is refused and rewritten: faces come back with metrics")
    func anEarlierLayoutsIndexFileIsRebuilt() throws {
        let cache = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(cache) }
        let configuration = RegistryConfiguration(fontFiles: [Self.debianFiles[0]], cacheDirectory: cache)
        _ = try FontRegistry(configuration: configuration)
        let path = cache + "/" + FontRegistry.indexFileName
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[8] = UInt8(SnapshotLayout.version - 1)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let faces = try FontRegistry(configuration: configuration).index.faces
        #expect(faces.first?.metrics.unitsPerEm == 2000)
        let rewritten = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(rewritten[8] == UInt8(SnapshotLayout.version))
    }
}

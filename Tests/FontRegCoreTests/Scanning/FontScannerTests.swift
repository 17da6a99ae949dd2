import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

@Suite struct FontScannerTests {
    let index = Fixtures.registry.index

    @Test func everyFixtureFaceIsIndexedWithItsTypographicFamily() throws {
        let semibold = try #require(index.face(postscriptName: "FixtureSans-SemiBold"))
        #expect(semibold.family == "Fixture Sans")  // name ID 16, not ID 1 "Fixture Sans SemiBold"
        #expect(semibold.subfamily == "SemiBold")
        #expect(semibold.weight == 600)
        #expect(semibold.format == "CFF")
        #expect(index.family(named: "Fixture Sans")?.faces.count == 18)
        #expect(index.problems.isEmpty)
    }

    @Test func variableFontGivesEachNamedInstanceItsOwnWeightAndRealPostScriptName() throws {
        let family = try #require(index.family(named: "Fixture Var"))
        let instances = family.faces.filter { $0.instance != nil && !$0.italic }
        #expect(instances.map(\.weight) == [100, 200, 300, 400, 500, 600, 700, 800, 900])
        let thin = try #require(index.face(postscriptName: "FixtureVar-Thin"))
        #expect(thin.weight == 100)
        #expect(thin.instance != nil)
        #expect(thin.freetypeIndex == (thin.instance! << 16))
        let whole = try #require(family.faces.first { $0.instance == nil && !$0.italic })
        #expect(whole.weightRange == 100...900)
        #expect(whole.axes.map(\.tag) == ["wght"])
        let italic = try #require(family.faces.first { $0.instance == nil && $0.italic })
        #expect(italic.weightRange == 300...700)
    }

    @Test func collectionGivesEveryFace() {
        let faces = index.faces.filter { $0.file.hasSuffix("FixtureCollection.ttc") }
        #expect(faces.map(\.index).sorted() == [0, 1, 2])
        #expect(
            Set(faces.map(\.postscriptName)) == [
                "FixtureCollection-Regular", "FixtureCollection-Bold", "FixtureCollection-Italic",
            ])
        #expect(faces.allSatisfy { $0.format.contains("Collection") })
    }

    @Test func webFontsAreReadAndTheirContainerIsNamed() throws {
        let woff = try #require(index.face(postscriptName: "FixtureWeb-Regular"))
        let woff2 = try #require(index.face(postscriptName: "FixtureWeb-Bold"))
        #expect(woff.format.hasPrefix("WOFF ("))
        #expect(woff2.format.hasPrefix("WOFF2 ("))
        #expect(woff2.weight == 700)
    }

    @Test func colorFontIsMarkedAndOthersAreNot() throws {
        #expect(try #require(index.face(postscriptName: "FixtureColor-Regular")).isColor)
        #expect(try #require(index.face(postscriptName: "FixtureSans-Regular")).isColor == false)
    }

    @Test func quirkyWeightsAndStylesComeFromTheFontNotTheName() throws {
        #expect(try #require(index.face(postscriptName: "RoboFixture-Thin")).weight == 250)
        #expect(try #require(index.face(postscriptName: "HairlineFixture-Thin")).weight == 200)
        let oblique = try #require(index.face(postscriptName: "ObliqueFixture-Oblique"))
        #expect(oblique.oblique && !oblique.italic && oblique.style == .oblique)
        let condensed = try #require(index.face(postscriptName: "OpenFixtureCondensed-Bold"))
        #expect(condensed.family == "Open Fixture Condensed")
        #expect(condensed.width == 3)
        let record = try #require(index.face(postscriptName: "NeueFixture"))
        #expect(record.fileSize > 0)
        #expect(record.fileSize == Int64(try FileManager.default.attributesOfItem(atPath: record.file)[.size] as! Int))
    }

    @Test(arguments: [
        ("empty.ttf", "empty file"), ("truncated.ttf", "corrupt"), ("not-a-font.ttf", "not a font"),
        ("garbage.otf", "font"), ("bad-magic.ttc", "corrupt"),
    ])
    func everyBadFileIsSkippedWithItsPathAndAReason(name: String, words: String) throws {
        let result = FontScanner().scan(roots: [Fixtures.bad])
        #expect(result.files.isEmpty)
        let problem = try #require(result.problems.first { $0.path.hasSuffix("/" + name) })
        #expect(!problem.reason.isEmpty)
        #expect(problem.reason.contains(words))
    }

    @Test func badFilesDoNotStopTheRestOfTheScan() {
        let result = FontScanner().scan(roots: [Fixtures.bad, Fixtures.fonts + "/collection"])
        #expect(result.problems.count == 5)
        #expect(result.files.count == 1)
    }

    @Test func fifoDeviceLoopAndDanglingLinkAreReportedAndNeverOpened() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: dir)
        #expect(mkfifo(dir + "/pipe.ttf", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/null.ttf", withDestinationPath: "/dev/null")
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/sub/loop", withDestinationPath: dir)
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/gone.ttf", withDestinationPath: dir + "/nothing-here.ttf")
        // A FIFO that is opened for reading blocks until a writer comes: finishing proves it was not.
        let result = FontScanner().scan(roots: [dir])
        #expect(result.files.map(\.faces.first?.postscriptName) == ["NotoFixture-Regular"])
        let reasons = Dictionary(
            uniqueKeysWithValues: result.problems.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        #expect(reasons["pipe.ttf"]?.contains("FIFO") == true)
        #expect(reasons["null.ttf"]?.contains("device") == true)
        #expect(reasons["loop"]?.contains("directory loop") == true)
        #expect(reasons["gone.ttf"] == FontScanner.linkNotFollowed)
    }

    @Test func theSameFileReachedTwiceIsRegisteredOnce() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Bold.ttf"], to: dir)
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/again.ttf", withDestinationPath: dir + "/NotoFixture-Bold.ttf")
        let result = FontScanner().scan(roots: [dir, dir + "/NotoFixture-Bold.ttf"])
        #expect(result.files.count == 1)
        #expect(result.problems.isEmpty)
    }

    @Test func nonFontFilesInADirectoryAreIgnoredButNamedFilesAreTried() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        try "licence".write(toFile: dir + "/OFL.txt", atomically: true, encoding: .utf8)
        #expect(FontScanner().scan(roots: [dir]).problems.isEmpty)
        let named = FontScanner().scan(roots: [dir + "/OFL.txt"])
        #expect(named.problems.first?.reason.contains("not a font") == true)
    }

    @Test func unchangedFilesAreNotReadAgainButChangedOnesAre() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(dir) }
        Fixtures.copy(["NotoFixture-Regular.ttf"], to: dir)
        let scanner = FontScanner()
        let first = scanner.scan(roots: [dir])
        #expect(first.files.first?.faces.first?.postscriptName == "NotoFixture-Regular")
        try FileManager.default.removeItem(atPath: dir + "/NotoFixture-Regular.ttf")
        try FileManager.default.copyItem(
            atPath: Fixtures.families + "/NotoFixture-Bold.ttf", toPath: dir + "/NotoFixture-Regular.ttf")
        let second = scanner.scan(roots: [dir])
        #expect(second.files.first?.faces.first?.postscriptName == "NotoFixture-Bold")
    }

    @Test(arguments: [
        ("Lato-Bold.ttf", true), ("Inter.OTF", true), ("NotoSansCJK.ttc", true), ("x.Woff2", true), ("font.t1", true),
        ("README", false), ("notes.txt", false), ("archive.ttf.gz", false), ("ttf", false), ("trailing.", false),
        (".ttf", false), ("a.ttf\u{301}", false), ("a.tt\u{0130}", false), ("a.DFONT", true), ("a.woff22", false),
        ("a.tt", false), ("a.t", false), ("a.", false), ("a.tTc", true), ("x.pcf", true), ("x.pcf.", false),
        ("a.tt\u{0}f", false),
    ])
    func fontExtensionIsTheLastDottedSuffixIgnoringASCIICase(name: String, expected: Bool) {
        #expect(FontScanner.hasFontExtension(name) == expected)
        // Agrees with what NSString.pathExtension gave before.
        #expect(FontScanner.fontExtensions.contains((name as NSString).pathExtension.lowercased()) == expected)
    }
}

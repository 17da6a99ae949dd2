import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore

@Suite struct FaceCacheTests {
    @Test func aScanThatFindsOnlyCachedFilesLeavesTheCacheFileAloneEvenBesideABadFile() throws {
        let fonts = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(fonts) }
        Fixtures.copy(["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"], to: fonts)
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: fonts + "/Broken.ttf"))
        let scanner = FontScanner()
        let first = scanner.scan(roots: [fonts])
        #expect(scanner.cacheChanged)
        #expect(first.problems.count == 1)
        _ = scanner.scan(roots: [fonts])
        #expect(!scanner.cacheChanged)  // the bad file is read again, but nothing the cache holds changed
        try FileManager.default.removeItem(atPath: fonts + "/NotoFixture-Bold.ttf")
        _ = scanner.scan(roots: [fonts])
        #expect(scanner.cacheChanged)
        Fixtures.copy(["NotoFixture-Italic.ttf"], to: fonts)
        _ = scanner.scan(roots: [fonts])
        #expect(scanner.cacheChanged)
    }
}

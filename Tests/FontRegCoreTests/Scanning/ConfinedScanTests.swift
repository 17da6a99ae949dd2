import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegCore
@testable import FontRegSystem

/// Issue 17, items 1–5: the scanner reaches a registered path only beneath its allowed root,
/// follows no link swapped in for it, says nothing about where a link leads, and bounds what it reads.
@Suite struct ConfinedScanTests {
    /// An allowed root holding a registered directory and file, and a secret font outside it.
    struct Layout {
        let directory = Fixtures.temporaryDirectory()
        var allowed: String { directory + "/allowed" }
        var brand: String { allowed + "/brand" }
        var single: String { allowed + "/Single.ttf" }
        var secret: String { directory + "/secret" }

        init() throws {
            try FileManager.default.createDirectory(atPath: brand, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: secret, withIntermediateDirectories: true)
            Fixtures.copy(["NotoFixture-Regular.ttf"], to: brand)
            try FileManager.default.copyItem(atPath: brand + "/NotoFixture-Regular.ttf", toPath: single)
            Fixtures.copy(["AvenirFixture-Bold.ttf"], to: secret)
        }

        /// The allowed root with its links resolved, as the daemon passes it.
        var confinement: [String] { [FontScanner.realPath(allowed)!] }

        func scan(_ roots: [String]) -> ScanResult {
            FontScanner().scan(
                roots: roots, confinement: Dictionary(uniqueKeysWithValues: roots.map { ($0, confinement) }))
        }
    }

    static func faces(_ result: ScanResult) -> [String] { result.files.flatMap(\.faces).map(\.postscriptName) }

    @Test func aRegisteredDirectoryReplacedByALinkToASecretDirectoryIsNotFollowed() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        #expect(Self.faces(layout.scan([layout.brand])) == ["NotoFixture-Regular"])
        try FileManager.default.moveItem(atPath: layout.brand, toPath: layout.allowed + "/brand.old")
        try FileManager.default.createSymbolicLink(atPath: layout.brand, withDestinationPath: layout.secret)
        let result = layout.scan([layout.brand])
        #expect(Self.faces(result).isEmpty)
        let problem = try #require(result.problems.first)
        #expect(problem.path == layout.brand)
        #expect(problem.reason.contains("symbolic link"))
        #expect(!problem.reason.contains(layout.secret))
    }

    @Test func aRegisteredFileReplacedByALinkToASecretFontIsNotFollowed() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        #expect(Self.faces(layout.scan([layout.single])) == ["NotoFixture-Regular"])
        try FileManager.default.removeItem(atPath: layout.single)
        try FileManager.default.createSymbolicLink(
            atPath: layout.single, withDestinationPath: layout.secret + "/AvenirFixture-Bold.ttf")
        let result = layout.scan([layout.single])
        #expect(Self.faces(result).isEmpty)
        #expect(result.problems.map(\.path) == [layout.single])
        #expect(result.problems.allSatisfy { !$0.reason.contains(layout.secret) })
    }

    @Test func aLinkInAParentOfTheRegisteredPathIsNotFollowedEither() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        // The registered path is allowed/team/brand; `team` becomes a link to a directory holding a "brand" of secrets.
        let team = layout.allowed + "/team"
        try FileManager.default.createDirectory(atPath: team + "/brand", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: team, toPath: layout.allowed + "/team.old")
        try FileManager.default.createDirectory(atPath: layout.directory + "/decoy", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: layout.secret, toPath: layout.directory + "/decoy/brand")
        try FileManager.default.createSymbolicLink(atPath: team, withDestinationPath: layout.directory + "/decoy")
        let result = layout.scan([team + "/brand"])
        #expect(Self.faces(result).isEmpty)
        #expect(result.problems.count == 1)
    }

    @Test func aLinkOutsideAndADanglingLinkAreReportedInTheSameWords() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        try FileManager.default.createSymbolicLink(
            atPath: layout.brand + "/Exists.ttf", withDestinationPath: layout.secret + "/AvenirFixture-Bold.ttf")
        try FileManager.default.createSymbolicLink(
            atPath: layout.brand + "/Missing.ttf", withDestinationPath: layout.secret + "/Nothing.ttf")
        try FileManager.default.createSymbolicLink(
            atPath: layout.brand + "/InsideMissing.ttf", withDestinationPath: layout.allowed + "/Nothing.ttf")
        let result = layout.scan([layout.brand])
        #expect(Self.faces(result) == ["NotoFixture-Regular"])
        let reasons = Set(result.problems.map(\.reason))
        #expect(result.problems.count == 3)
        #expect(reasons == [FontScanner.linkNotFollowed])
    }

    @Test func aLinkLeadingInsideTheAllowedRootIsFollowedBeneathIt() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        try FileManager.default.createSymbolicLink(
            atPath: layout.brand + "/again.ttf", withDestinationPath: "../Single.ttf")
        try FileManager.default.createSymbolicLink(atPath: layout.brand + "/up", withDestinationPath: layout.allowed)
        let result = layout.scan([layout.brand])
        // Single.ttf is the same font as the one in brand but another file: both are served, each once.
        #expect(result.files.count == 2)
        #expect(result.problems.map(\.reason).allSatisfy { $0.contains("directory loop") })
    }

    @Test func aTenGibibyteSparseFileIsReportedNotRead() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        let huge = layout.brand + "/Huge.ttf"
        let fd = open(huge, O_WRONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 10 << 30) == 0)
        close(fd)
        let result = layout.scan([layout.brand])
        #expect(Self.faces(result) == ["NotoFixture-Regular"])
        let problem = try #require(result.problems.first { $0.path == huge })
        #expect(problem.reason.contains("larger than any font file"))
    }

    @Test func theSizeBoundIsConfigurable() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        let result = FontScanner(maximumFileSize: 1024).scan(roots: [layout.brand])
        #expect(result.files.isEmpty)
        #expect(result.problems.first?.reason.contains("larger than any font file") == true)
    }

    @Test func aFileTruncatedWhileMappedReadsAsZerosAndIsMarkedDamagedInsteadOfCrashing() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let path = directory + "/shrinking.ttf"
        try Data(repeating: 0x41, count: 64 * 1024).write(to: URL(fileURLWithPath: path))
        let file = try FileDescriptor.open(path, as: .file)
        let mapping = try file.map(count: 64 * 1024)
        #expect(!mapping.isDamaged)
        #expect(truncate(path, 0) == 0)
        // Without the guard this read is a SIGBUS and the test process dies.
        let last = mapping.base.load(fromByteOffset: 64 * 1024 - 1, as: UInt8.self)
        #expect(last == 0)
        #expect(mapping.isDamaged)
    }

    @Test func openBeneathRefusesLinksAndParentReferences() throws {
        let layout = try Layout()
        defer { Fixtures.cleanUp(layout.directory) }
        try FileManager.default.createSymbolicLink(atPath: layout.allowed + "/link", withDestinationPath: "brand")
        try FileManager.default.createSymbolicLink(
            atPath: layout.allowed + "/absolute", withDestinationPath: layout.brand)
        let root = try FileDescriptor.open(layout.allowed, as: .directory)
        #expect(try root.openBeneath("brand/NotoFixture-Regular.ttf", as: .file).status().kind == .regular)
        #expect(throws: SystemError.self) { try root.openBeneath("link/NotoFixture-Regular.ttf", as: .file) }
        #expect(throws: SystemError.self) { try root.openBeneath("link", as: .directory) }
        #expect(throws: SystemError.self) { try root.openBeneath("brand/../../secret", as: .directory) }
        if FileDescriptor.hasOpenat2 {  // without openat2 no link is followed at all
            #expect(try root.openFollowingLinksBeneath("link", as: .directory).status().kind == .directory)
        }
        // The kernel lets no absolute link stay "beneath": the scanner follows those itself, one step at a time.
        #expect(throws: SystemError.self) { try root.openFollowingLinksBeneath("absolute", as: .directory) }
    }
}

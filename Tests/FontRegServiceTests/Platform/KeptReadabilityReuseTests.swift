import FontRegCore
import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegService

/// Issue 29 item 3: a warm start reuses the kept classification whole, walking the mapped index
/// file's table beside the kept file (``FileReadability/reusingWhole(_:kept:)``), only while every
/// file and directory is as the kept answers found them; any difference leaves the decision to the
/// file-by-file classification. Real fonts, a real index file written and mapped again, real `chmod`.
@Suite("A warm start reuses the kept classification whole only while nothing changed", .serialized)
struct KeptReadabilityReuseTests {
    /// fonts/ (0755) holding Lato-Italic.ttf and sub/ (0755) with Lato-Regular.ttf, every file 0644,
    /// and a cache directory whose index file a first (cold) registry wrote.
    struct Layout {
        let directory = TemporaryDirectory()
        var fonts: String { directory.file("fonts") }
        var sub: String { fonts + "/sub" }
        var regular: String { sub + "/Lato-Regular.ttf" }
        var italic: String { fonts + "/Lato-Italic.ttf" }
        var cache: String { directory.file("cache") }

        init() throws {
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: BuildProducts.realFonts + "/Lato/Lato-Regular.ttf", toPath: regular)
            try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Lato/Lato-Italic.ttf", toPath: italic)
            for folder in [fonts, sub] { chmod(folder, 0o755) }
            for font in [regular, italic] { chmod(font, 0o644) }
            _ = try registry()
        }

        /// A registry on ``fonts`` with the layout's cache directory (warm after the first).
        func registry() throws -> FontRegistry {
            try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: cache))
        }

        /// What the file-by-file classification, asking about every file, keeps of `registry`'s index.
        func kept(_ registry: FontRegistry) -> PersistedReadability {
            let found = FileReadability.classify(
                registry.index, files: { registry.indexedFile(path: $0) }, reusing: ([:], [:]))
            return PersistedReadability(files: found.known, directories: found.directories)
        }
    }

    @Test func unchangedFilesAreReusedWholeFromTheMappedTable() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        #expect("\(registry.startMode)".hasPrefix("warm"), "\(registry.startMode)")
        let table = try #require(registry.indexedFileTable(of: registry.index), "a warm start's index is mapped")
        #expect(table.coversEveryFaceOnce)
        let kept = layout.kept(registry)
        #expect(kept.fileCount == 2)
        #expect(FileReadability.reusingWhole(table, kept: kept) == [])
    }

    @Test func aRestrictedAnswerKeptIsReusedAsRestricted() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        let table = try #require(registry.indexedFileTable(of: registry.index))
        var files = layout.kept(registry).files
        try #require(files[layout.regular] != nil)
        files[layout.regular]?.isPublic = false
        let kept = PersistedReadability(files: files, directories: layout.kept(registry).directories)
        #expect(FileReadability.reusingWhole(table, kept: kept) == [layout.regular])
    }

    @Test func aChmodOfADirectoryOrOfAFileLeavesTheDecisionToTheFileByFileClassification() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        let table = try #require(registry.indexedFileTable(of: registry.index))
        let kept = layout.kept(registry)
        chmod(layout.sub, 0o700)
        #expect(FileReadability.reusingWhole(table, kept: kept) == nil, "sub/ closed")
        chmod(layout.sub, 0o755)
        #expect(FileReadability.reusingWhole(table, kept: kept) == [], "sub/ as it was")
        usleep(20_000)  // past the kernel's clock tick, so that the status change time moves
        chmod(layout.italic, 0o644)  // the same mode: only its status change time moves
        #expect(FileReadability.reusingWhole(table, kept: kept) == nil, "the file's st_ctime moved")
    }

    @Test func aKeptClassificationWithAFileMoreOrLessThanTheIndexIsNotReusedWhole() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        let table = try #require(registry.indexedFileTable(of: registry.index))
        let kept = layout.kept(registry)
        var more = kept.files
        more[layout.fonts + "/Gone.ttf"] = more[layout.italic]
        #expect(
            FileReadability.reusingWhole(table, kept: PersistedReadability(files: more, directories: kept.directories))
                == nil)
        var less = kept.files
        less[layout.italic] = nil
        #expect(
            FileReadability.reusingWhole(table, kept: PersistedReadability(files: less, directories: kept.directories))
                == nil)
        var directories = kept.directories
        directories[layout.directory.file("elsewhere")] = directories[layout.fonts]
        #expect(
            FileReadability.reusingWhole(table, kept: PersistedReadability(files: kept.files, directories: directories))
                == nil, "a kept directory no file passes through")
    }

    @Test func aFileReplacedUnderTheSamePathIsNotReusedWhole() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        let table = try #require(registry.indexedFileTable(of: registry.index))
        let kept = layout.kept(registry)
        let copy = layout.directory.file("copy.ttf")
        try FileManager.default.copyItem(atPath: layout.italic, toPath: copy)
        #expect(rename(copy, layout.italic) == 0)
        #expect(FileReadability.reusingWhole(table, kept: kept) == nil, "another inode under the same path")
    }

    @Test func aFileSwappedForALinkToItselfElsewhereIsNotReusedWhole() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        let table = try #require(registry.indexedFileTable(of: registry.index))
        var files = layout.kept(registry).files
        let directories = layout.kept(registry).directories
        // The file moved aside and a link put in its place; the kept answer updated to the moved
        // file's own status (the rename moved its st_ctime), so that only following the link passes.
        let moved = layout.directory.file("moved.ttf")
        #expect(rename(layout.italic, moved) == 0)
        #expect(symlink(moved, layout.italic) == 0)
        var info = stat()
        #expect(stat(moved, &info) == 0)
        files[layout.italic]?.fingerprint = FileFingerprint(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
            stamp: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec))
        let kept = PersistedReadability(files: files, directories: directories)
        #expect(FileReadability.reusingWhole(table, kept: kept) == nil, "a link where the file was")
        // The same answers with the file back in place pass: the link alone made the difference.
        #expect(unlink(layout.italic) == 0)
        #expect(rename(moved, layout.italic) == 0)
        #expect(stat(layout.italic, &info) == 0)
        files[layout.italic]?.fingerprint?.stamp = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
        #expect(
            FileReadability.reusingWhole(table, kept: PersistedReadability(files: files, directories: directories))
                == [])
    }

    @Test func aDirectorySwappedForALinkToItIsNotReusedWhole() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        let table = try #require(registry.indexedFileTable(of: registry.index))
        let kept = layout.kept(registry)
        // sub/ moved aside and a link put in its place: every file below it is the same file.
        let moved = layout.directory.file("sub-moved")
        #expect(rename(layout.sub, moved) == 0)
        #expect(symlink(moved, layout.sub) == 0)
        #expect(FileReadability.reusingWhole(table, kept: kept) == nil, "a link where the directory was")
    }

    @Test func aWarmStartHandsOutTheFilesItsDirectoryCheckSawOnceAndAColdStartNone() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        #expect("\(registry.startMode)".hasPrefix("warm"))
        let seen = try #require(registry.takeWarmStartSeenFiles(), "a warm start saw its directories' files")
        #expect(seen.count == 2, "Lato-Italic.ttf in fonts/ and Lato-Regular.ttf in sub/")
        #expect(registry.takeWarmStartSeenFiles() == nil, "handed out once")
        try FileManager.default.removeItem(atPath: layout.cache)
        let cold = try layout.registry()
        #expect("\(cold.startMode)".hasPrefix("cold"))
        #expect(cold.takeWarmStartSeenFiles() == nil)
    }

    @Test func filesTheDirectoryCheckSawAreComparedWithTheKeptAnswersWithoutAnotherLstat() throws {
        let layout = try Layout()
        let registry = try layout.registry()
        let table = try #require(registry.indexedFileTable(of: registry.index))
        let seen = try #require(registry.takeWarmStartSeenFiles())
        let kept = layout.kept(registry)
        #expect(FileReadability.reusingWhole(table, kept: kept, seen: seen) == [])
        // A kept answer older than what the check saw (the file's st_ctime moved since) is not reused.
        var files = kept.files
        files[layout.italic]?.fingerprint?.stamp -= 1
        #expect(
            FileReadability.reusingWhole(
                table, kept: PersistedReadability(files: files, directories: kept.directories), seen: seen) == nil)
        // What was seen decides for the files it holds: a chmod after the check is the next
        // classification's (the daemon classifies right after its start's check).
        usleep(20_000)
        chmod(layout.italic, 0o644)
        #expect(FileReadability.reusingWhole(table, kept: kept, seen: seen) == [], "as the check saw it")
        #expect(FileReadability.reusingWhole(table, kept: kept) == nil, "an lstat now sees the st_ctime moved")
    }
}

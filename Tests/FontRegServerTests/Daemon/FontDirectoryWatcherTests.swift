import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegServer
@testable import FontRegSystem

/// The watcher keeps watching what it should, and only that (issue 17: overflow, re-created roots, swapped links).
@Suite struct FontDirectoryWatcherTests {
    /// `IN_Q_OVERFLOW`, as the kernel sends it (watch -1, no name) when its queue was full.
    static let overflow = Inotify.Event(watch: -1, mask: 0x0000_4000, name: "")

    @Test func anOverflowWatchesSubdirectoriesCreatedMeanwhileAndAsksForARescan() throws {
        let directory = TemporaryDirectory()
        let fonts = directory.file("allowed/fonts")
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        let watcher = try FontDirectoryWatcher(
            directories: [fonts], allowedRoots: [directory.file("allowed")], debounceMilliseconds: 10, logger: Logger())
        #expect(watcher.watchedDirectories == [fonts])
        // Created while events were being lost: no event for them will ever come.
        for n in 0..<20 {
            try FileManager.default.createDirectory(
                atPath: fonts + "/new\(n)/deeper", withIntermediateDirectories: true)
        }
        #expect(watcher.handle([Self.overflow]))
        #expect(watcher.watchedDirectories.count == 41)
        #expect(watcher.watchedDirectories.contains(fonts + "/new7/deeper"))
    }

    @Test func aRootDeletedAndCreatedAgainIsWatchedAgain() throws {
        let directory = TemporaryDirectory()
        let fonts = directory.file("allowed/fonts")
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        let watcher = try FontDirectoryWatcher(
            directories: [fonts], allowedRoots: [directory.file("allowed")], debounceMilliseconds: 10, logger: Logger())
        try FileManager.default.removeItem(atPath: fonts)
        var buffer = [UInt8](repeating: 0, count: 65536)
        _ = watcher.handle(Inotify.events(in: &buffer, from: watcher))
        #expect(watcher.watchedDirectories.isEmpty)
        #expect(!watcher.rewatchMissingRoots())
        try FileManager.default.createDirectory(atPath: fonts + "/sub", withIntermediateDirectories: true)
        #expect(watcher.rewatchMissingRoots())
        #expect(watcher.watchedDirectories == [fonts, fonts + "/sub"])
    }

    @Test func aRootReplacedByALinkToAnotherDirectoryIsNotWatched() throws {
        let directory = TemporaryDirectory()
        let fonts = directory.file("allowed/fonts"), secret = directory.file("secret")
        try FileManager.default.createDirectory(atPath: directory.file("allowed"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: secret + "/inside", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fonts, withDestinationPath: secret)
        let watcher = try FontDirectoryWatcher(
            directories: [fonts], allowedRoots: [directory.file("allowed")], debounceMilliseconds: 10, logger: Logger())
        #expect(watcher.watchedDirectories.isEmpty)
        #expect(!watcher.rewatchMissingRoots())
    }
}

extension Inotify {
    /// The events waiting on a watcher's instance (for tests that drive the watcher by hand).
    static func events(in buffer: inout [UInt8], from watcher: FontDirectoryWatcher) -> [Event] {
        ((try? watcher.inotifyForTests.read(into: &buffer)) ?? nil) ?? []
    }
}

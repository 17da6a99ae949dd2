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

    @Test func aRealQueueOverflowWatchesSubdirectoriesCreatedDuringItAndLaterEventsArrive() throws {
        let directory = TemporaryDirectory()
        let fonts = directory.file("allowed/fonts")
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        let watcher = try FontDirectoryWatcher(
            directories: [fonts], allowedRoots: [directory.file("allowed")], debounceMilliseconds: 10, logger: Logger())
        // Fill the kernel's queue (max_queued_events) while nobody reads it: each rename is two events.
        let queued =
            (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
        _ = FileManager.default.createFile(atPath: fonts + "/a", contents: Data())
        for _ in 0..<(queued / 4 + 64) {
            #expect(rename(fonts + "/a", fonts + "/b") == 0)
            #expect(rename(fonts + "/b", fonts + "/a") == 0)
        }
        // Created once events were being lost: the kernel says nothing of them.
        for n in 0..<10 {
            try FileManager.default.createDirectory(
                atPath: fonts + "/late\(n)/deeper", withIntermediateDirectories: true)
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var overflowed = false
        while case let events = Inotify.events(in: &buffer, from: watcher), !events.isEmpty {
            overflowed = overflowed || events.contains(where: \.isOverflow)
            _ = watcher.handle(events)
        }
        #expect(overflowed, "the queue did not overflow after \(queued / 2 + 128) events")
        #expect(watcher.watchedDirectories.count == 21)
        #expect(watcher.watchedDirectories.contains(fonts + "/late9/deeper"))
        // The new subdirectories are really watched: a font copied there later is seen.
        _ = FileManager.default.createFile(atPath: fonts + "/late4/deeper/new.ttf", contents: Data([0]))
        let later = Inotify.events(in: &buffer, from: watcher)
        #expect(later.contains { $0.name == "new.ttf" })
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
        #expect(watcher.rewatchMissingRoots().isEmpty)
        try FileManager.default.createDirectory(atPath: fonts + "/sub", withIntermediateDirectories: true)
        #expect(!watcher.rewatchMissingRoots().isEmpty)
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
        #expect(watcher.rewatchMissingRoots().isEmpty)
    }
}

extension Inotify {
    /// The events waiting on a watcher's instance (for tests that drive the watcher by hand).
    static func events(in buffer: inout [UInt8], from watcher: FontDirectoryWatcher) -> [Event] {
        ((try? watcher.inotifyForTests.read(into: &buffer)) ?? nil) ?? []
    }

    /// Issue 24: a flood's rescans are charged to whoever registered the root that changed, so
    /// the watcher names the roots, each once; a root registered again in a loop is one root.
    @Test func theRootsOfChangedDirectoriesAreNamedOnceAndARootWatchedAgainIsNotAddedTwice() throws {
        let directory = TemporaryDirectory()
        let first = directory.file("a"), second = directory.file("ab")
        for path in [first + "/x/y", second] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        let watcher = try FontDirectoryWatcher(
            directories: [first], debounceMilliseconds: 10, logger: Logger(minimumLevel: .error))
        for _ in 0..<50 { watcher.watch([second]) }
        #expect(
            watcher.roots(of: [first + "/x/y", first + "/x", second, directory.file("elsewhere")]) == [first, second])
        var changed: Set<String> = []
        #expect(watcher.watchedDirectories.count == 4)
        #expect(watcher.handle([FontDirectoryWatcherTests.overflow], changed: &changed))
        #expect(watcher.roots(of: changed) == [first, second])
    }
}

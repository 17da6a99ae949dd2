import Dispatch
import FontRegCore
import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegService

/// Issue 24: the daemon's state files are read without following a link and without blocking,
/// what is not a regular file is reported and left in place, every corrupt copy is kept under a
/// name of its own (the newest five), and a change start-up would not read is refused.
@Suite("state files: no link, no block, no copy lost, no file too large")
struct StateFileTests {
    /// Runs `body` on another thread and fails the test if it takes longer than `seconds`.
    static func withinDeadline<T: Sendable>(seconds: Double = 10, _ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        DispatchQueue.global().async {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            Issue.record("blocked for more than \(seconds) s")
            return nil
        }
        return result.withLock { $0 }
    }

    @Test func aSymbolicLinkAtEitherStateFileIsReportedNotReadAndLeftInPlace() throws {
        let directory = TemporaryDirectory()
        let elsewhere = directory.file("elsewhere.json")
        try Data(#"{"version": 1, "paths": ["/srv/fonts"]}"#.utf8).write(to: URL(fileURLWithPath: elsewhere))
        let registrations = RegistrationStore(directory: directory.path)
        let platform = PlatformStateStore(directory: directory.path)
        try FileManager.default.createSymbolicLink(atPath: registrations.path, withDestinationPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: platform.path, withDestinationPath: elsewhere)

        let loaded = try registrations.loadMovingCorruptAside()
        #expect(loaded.paths.isEmpty && loaded.movedAside == nil)
        #expect(loaded.refused?.description.contains("is a symbolic link, not a regular file") == true)
        let (state, problems) = platform.load()
        #expect(state == PlatformState())
        guard problems.count == 1, case .notRead(let reason, uid: nil) = problems[0] else {
            Issue.record("a link read as state: \(problems)")
            return
        }
        #expect(reason.problemKind == .notRegularFile)
        #expect(reason.description.contains("symbolic link"))
        for path in [registrations.path, platform.path] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == elsewhere, "left in place")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "elsewhere.json", "platform.json", "registrations.json",
            ])
    }

    @Test func aFIFOAtEitherStateFileIsReportedWithoutBlocking() throws {
        let directory = TemporaryDirectory()
        let registrations = RegistrationStore(directory: directory.path)
        let platform = PlatformStateStore(directory: directory.path)
        #expect(mkfifo(registrations.path, 0o644) == 0)
        #expect(mkfifo(platform.path, 0o644) == 0)
        let refused = Self.withinDeadline { (try? registrations.loadMovingCorruptAside())?.refused?.description }
        #expect(refused??.contains("is a FIFO, not a regular file") == true)
        let problems = Self.withinDeadline { platform.load().problems }
        #expect(problems == [.notRead(PersistenceError.notRegularFile(path: platform.path, kind: "a FIFO"), uid: nil)])
        var info = stat()
        #expect(lstat(platform.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "left in place")
    }

    @Test func everyCorruptCopyIsKeptUnderANameOfItsOwnAndOnlyTheNewestFiveStay() throws {
        let directory = TemporaryDirectory()
        let store = RegistrationStore(directory: directory.path)
        var kept: [String] = []
        for round in 1...7 {
            try Data("{oops \(round)".utf8).write(to: URL(fileURLWithPath: store.path))
            let loaded = try store.loadMovingCorruptAside()
            let moved = try #require(loaded.movedAside)
            #expect(!kept.contains(moved.path), "a second corruption never takes the name of the first")
            #expect(try String(contentsOfFile: moved.path, encoding: .utf8) == "{oops \(round)")
            #expect(moved.removed == (round > 5 ? [kept[round - 6]] : []))
            kept.append(moved.path)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left.map { directory.path + "/" + $0 } == Array(kept.suffix(StateFile.keptCopies)))
        for (round, path) in zip(3...7, kept.suffix(5)) {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "{oops \(round)")
        }
    }

    @Test func aCopyMovedAsideNeverReplacesAFileAlreadyAtItsName() throws {
        let directory = TemporaryDirectory()
        let file = StateFile(directory: directory.path, name: "platform.json")
        try Data("first".utf8).write(to: URL(fileURLWithPath: file.path))
        let first = try file.moveAside()
        try Data("second".utf8).write(to: URL(fileURLWithPath: file.path))
        let second = try file.moveAside()
        #expect(first.path != second.path)
        #expect(try String(contentsOfFile: first.path, encoding: .utf8) == "first")
        #expect(try String(contentsOfFile: second.path, encoding: .utf8) == "second")
    }

    @Test func aChangeLargerThanStartUpReadsIsRefusedNamingTheLimitAndNothingIsWritten() throws {
        let directory = TemporaryDirectory()
        let registrations = RegistrationStore(directory: directory.path)
        try registrations.save(["/small"])
        let huge = "/" + String(repeating: "x", count: StateFile.maximumSize)
        #expect {
            try registrations.save(["/small", huge])
        } throws: { error in
            guard let error = error as? PersistenceError, case .tooLarge(_, _, let limit) = error else { return false }
            return limit == 16 << 20 && error.description.contains("16 MiB limit")
        }
        #expect(try registrations.load() == ["/small"])

        let platform = PlatformStateStore(directory: directory.path)
        var state = PlatformState()
        state.registrations = [RegistrationRecord(path: huge, owner: 1001, scope: .persistent, isPrivate: true)]
        #expect(throws: PersistenceError.self) { try platform.save(state, replacing: PlatformState()) }
        #expect(!FileManager.default.fileExists(atPath: platform.path(of: 1001)))
    }

    @Test func savingIgnoresALinkPlantedAtTheOldFixedTemporaryName() throws {
        let directory = TemporaryDirectory()
        let victim = directory.file("victim")
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        let store = RegistrationStore(directory: directory.path)
        try FileManager.default.createSymbolicLink(atPath: store.path + ".tmp", withDestinationPath: victim)
        try store.save(["/a"])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched")
        #expect(try store.load() == ["/a"])
    }
}

import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegService

/// Issue 24: every user's persisted state was one `platform.json`, rewritten whole at every change
/// (its cost grew with other users' state) and rejected whole when one record was damaged (everyone's
/// state lost). Each uid now has a file of its own in `platform.d`.
@Suite("Per-user state files: one user's damage or change leaves the others' alone")
struct PerUserStateTests {
    static let a: UInt32 = 4301
    static let b: UInt32 = 4302
    static let c: UInt32 = 4303

    /// Three users, each with a registration, a disabled entry and a Bold Text setting.
    static var threeUsers: PlatformState {
        var state = PlatformState()
        for uid in [a, b, c] {
            state.registrations += [
                RegistrationRecord(path: "/home/\(uid)/fonts", owner: uid, scope: .persistent, isPrivate: true),
                RegistrationRecord(path: "/home/\(uid)/more", owner: uid, scope: .persistent, isPrivate: true),
            ]
            state.disabled.append(DisabledEntry(kind: .family, value: "Lato \(uid)", owner: uid, systemWide: false))
            state.boldText[uid] = uid != b
        }
        return state
    }

    /// `state` without what `uid` holds.
    static func without(_ uid: UInt32, _ state: PlatformState) -> PlatformState {
        var left = state
        left.registrations.removeAll { $0.owner == uid }
        left.disabled.removeAll { $0.owner == uid }
        left.boldText[uid] = nil
        return left
    }

    /// Inode and modification time of a file, to tell whether it was written.
    static func identity(_ path: String) -> [Int] {
        var info = stat()
        guard lstat(path, &info) == 0 else { return [] }
        return [Int(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }

    @Test(arguments: ["{not json", #"{"version": 1, "uid": 4302, "registrations": [{}], "disabled": []}"#])
    func aDamagedFileOfOneUserLosesThatUsersStateOnlyAndIsKeptAndReported(damage: String) throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        try store.save(Self.threeUsers, replacing: PlatformState())
        try Data(damage.utf8).write(to: URL(fileURLWithPath: store.path(of: Self.b)))

        let (state, problems) = store.load()
        #expect(state == Self.without(Self.b, Self.threeUsers), "a's and c's registrations, disabled and Bold Text")
        guard problems.count == 1, case .movedAside(let moved, uid: Self.b) = problems[0] else {
            Issue.record("not reported as b's: \(problems)")
            return
        }
        #expect(moved.path.hasPrefix(store.path(of: Self.b) + ".corrupt-"))
        #expect(try String(contentsOfFile: moved.path, encoding: .utf8) == damage, "the damaged copy is kept")
        let reported = RegistryService.described(problems[0], store: store)
        #expect(reported.path == store.path(of: Self.b))
        #expect(reported.reason.contains("uid \(Self.b)") && reported.reason.contains(moved.path))
    }

    @Test func aFileNamingAnotherUidThanItsNameIsDamage() throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        try store.save(Self.threeUsers, replacing: PlatformState())
        // c's file copied over b's: c's registrations must not become b's.
        try FileManager.default.removeItem(atPath: store.path(of: Self.b))
        try FileManager.default.copyItem(atPath: store.path(of: Self.c), toPath: store.path(of: Self.b))
        let (state, problems) = store.load()
        #expect(state == Self.without(Self.b, Self.threeUsers))
        #expect(problems.count == 1)
        if case .movedAside(_, uid: Self.b)? = problems.first {} else { Issue.record("\(problems)") }

        // An entry owned by another uid inside a file with the right uid is damage too.
        var forged = PlatformStateStore.jsonValue(PlatformState(), of: Self.a)
        forged = .object(
            (forged.objectValue ?? [:]).merging([
                "registrations": .array([
                    RegistrationRecord(path: "/x", owner: Self.c, scope: .persistent, isPrivate: true).jsonValue
                ])
            ]) { _, new in new })
        #expect(PlatformStateStore.part(forged, of: Self.a) == nil)
    }

    @Test func aSaveAfterOneUsersChangeWritesOnlyThatUsersFile() throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        let old = Self.threeUsers
        try store.save(old, replacing: PlatformState())
        let before = [Self.a, Self.b, Self.c].map { Self.identity(store.path(of: $0)) }
        Thread.sleep(forTimeInterval: 0.02)
        var new = old
        new.registrations.append(
            RegistrationRecord(path: "/home/a/third", owner: Self.a, scope: .persistent, isPrivate: true))
        try store.save(new, replacing: old)
        let after = [Self.a, Self.b, Self.c].map { Self.identity(store.path(of: $0)) }
        #expect(after[0] != before[0], "a's file rewritten")
        #expect(after[1] == before[1] && after[2] == before[2], "b's and c's files untouched")
        #expect(store.load().state.registrations.filter { $0.owner == Self.a }.map(\.path).last == "/home/a/third")

        // A user left with nothing has no file.
        try store.save(Self.without(Self.c, new), replacing: new)
        #expect(!FileManager.default.fileExists(atPath: store.path(of: Self.c)))
        #expect(Self.identity(store.path(of: Self.b)) == before[1])
        // Loaded in ascending uid order, each user's own order kept.
        #expect(
            store.load().state == PlatformStateStore.merged(PlatformStateStore.parts(of: Self.without(Self.c, new))))
    }

    @Test func aPlatformJSONOfAnEarlierVersionBecomesPerUserFilesAndIsRemoved() throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        // As an earlier version wrote it, with a `global` key of older files still.
        let legacy = #"""
            {"version": 1, "registrations": [
              {"path": "/home/b/fonts", "owner": 4302, "scope": "persistent", "private": true},
              {"path": "/home/a/fonts", "owner": 4301, "scope": "persistent", "private": true},
              {"path": "/srv/shared", "owner": 0, "scope": "persistent", "private": false}],
             "disabled": [{"kind": "face", "value": "Lato-Bold", "owner": 0, "global": true},
              {"kind": "family", "value": "Lato", "owner": 4301, "systemWide": false}],
             "boldText": {"4301": true, "4302": false}}
            """#
        try Data(legacy.utf8).write(to: URL(fileURLWithPath: store.path))
        let (state, problems) = store.load()
        #expect(problems.isEmpty)
        // Ascending uid order across users.
        #expect(state.registrations.map(\.path) == ["/srv/shared", "/home/a/fonts", "/home/b/fonts"])
        #expect(state.disabled.map(\.systemWide) == [true, false])
        #expect(state.boldText == [Self.a: true, Self.b: false])
        #expect(!FileManager.default.fileExists(atPath: store.path), "removed once every file was written")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.folder).sorted() == [
                "0.json", "4301.json", "4302.json",
            ])
        #expect(store.load() == (state, []))
    }

    @Test func aPlatformJSONThatCannotBeWrittenAsPerUserFilesIsKeptAndReported() throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        try Data(Self.threeUsers.jsonValue.serialized()).write(to: URL(fileURLWithPath: store.path))
        // A regular file where the folder goes: no per-user file can be written.
        try Data().write(to: URL(fileURLWithPath: store.folder))
        let (state, problems) = store.load()
        #expect(state == Self.threeUsers, "the state is served from platform.json")
        #expect(problems.contains { if case .notMigrated = $0 { true } else { false } })
        #expect(FileManager.default.fileExists(atPath: store.path), "kept")
    }

    @Test func aLinkOrFIFOAsAUsersFileIsReportedNotFollowedAndDoesNotBlock() throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        try store.save(Self.threeUsers, replacing: PlatformState())
        let elsewhere = directory.file("elsewhere.json")
        try FileManager.default.copyItem(atPath: store.path(of: Self.a), toPath: elsewhere)
        try FileManager.default.removeItem(atPath: store.path(of: Self.a))
        try FileManager.default.createSymbolicLink(atPath: store.path(of: Self.a), withDestinationPath: elsewhere)
        try FileManager.default.removeItem(atPath: store.path(of: Self.b))
        #expect(mkfifo(store.path(of: Self.b), 0o600) == 0)

        let loaded = StateFileTests.withinDeadline { store.load() }
        let (state, problems) = try #require(loaded)
        #expect(state == Self.without(Self.a, Self.without(Self.b, Self.threeUsers)), "the link is not followed")
        #expect(
            problems == [
                .notRead(.notRegularFile(path: store.path(of: Self.a), kind: "a symbolic link"), uid: Self.a),
                .notRead(.notRegularFile(path: store.path(of: Self.b), kind: "a FIFO"), uid: Self.b),
            ])
        var info = stat()
        #expect(lstat(store.path(of: Self.a), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "left in place")
        #expect(lstat(store.path(of: Self.b), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "left in place")
        #expect(RegistryService.described(problems[1], store: store).reason.contains("uid \(Self.b)"))
    }

    @Test func aUsersStateFileProblemIsShownToThatUserAndAdministratorsOnly() throws {
        let fixture = try UserFontsService()
        let store = PlatformStateStore(directory: fixture.state)
        try store.save(Self.threeUsers, replacing: PlatformState())
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: store.path(of: Self.b)))
        let problems = fixture.service.restorePlatformState()
        #expect(problems.map(\.audience) == [Self.b])
        fixture.service.startupProblems.withLock { $0 = problems }
        func shown(to uid: UInt32) throws -> [String] {
            let status = try fixture.call("GetStatus", uid: uid).get()
            return (status["problems"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue }
        }
        #expect(try shown(to: Self.b).contains(store.path(of: Self.b)))
        #expect(try shown(to: 0).contains(store.path(of: Self.b)))
        #expect(try !shown(to: Self.a).contains(store.path(of: Self.b)))
        #expect(fixture.service.platform.state.boldText == [Self.a: true, Self.c: true])
    }

    @Test func filesWhoseNamesAreNotAUidAreIgnored() {
        #expect(PlatformStateStore.uid(ofFileName: "1000.json") == 1000)
        for name in ["01000.json", "1000.json.corrupt-x", ".1000.json.1.2.tmp", "-1.json", "4294967296.json", ".json"] {
            #expect(PlatformStateStore.uid(ofFileName: name) == nil, "\(name)")
        }
    }
}

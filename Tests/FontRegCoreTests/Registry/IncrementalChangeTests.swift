import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegSystem

/// A change costs what it changes (issue 24): `Register` and `Unregister` walk only the roots
/// they name and reuse the other roots' last scans; `Rescan` still walks every root; the
/// outcome (faces, problems, duplicates, reports) is what a scan of every root finds.
@Suite struct IncrementalChangeTests {
    /// A fresh folder (mode 0755) holding copies of the named family fixtures.
    static func folder(_ names: [String], in parent: String, _ name: String) -> String {
        let path = parent + "/" + name
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)
        Fixtures.copy(names, to: path)
        return path
    }

    /// A registry over one configured folder, with its own cache directory.
    static func registry(_ scratch: String, configured: [String]) throws -> FontRegistry {
        try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: configured, cacheDirectory: scratch + "/cache"))
    }

    /// The faces a registry serves, as `file#index#name`, in order.
    static func keys(_ index: FontIndex) -> [String] {
        index.faces.map { "\($0.file)#\($0.freetypeIndex)#\($0.postscriptName)" }
    }

    @Test func registeringOneRootWalksThatRootAloneNotTheOthers() throws {
        let scratch = ProcessScratch.directory("incremental-walk")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let others = (0..<20).map { Self.folder([], in: scratch, "other-\($0)") }
        try registry.register(paths: others, filesOwnedBy: Syscall.userID)
        let walked = registry.rootsWalked, listed = registry.directoriesListed
        let mine = Self.folder(["NotoFixture-Bold.ttf"], in: scratch, "mine")
        let report = try registry.register(paths: [mine], filesOwnedBy: Syscall.userID)
        #expect(report.added.map(\.file) == [mine + "/NotoFixture-Bold.ttf"])
        // Before: every change walked every root (22 here) and listed each one's directory.
        #expect(registry.rootsWalked - walked == 1)
        #expect(registry.directoriesListed - listed == 1)
        let unregistered = try registry.unregister(paths: [others[3]])
        #expect(unregistered.removed.isEmpty)
        #expect(registry.rootsWalked - walked == 1)
        #expect(registry.registeredPaths.count == 21)
        // An explicit Rescan still walks every root.
        registry.rescan()
        #expect(registry.rootsWalked - walked == 1 + 21)
    }

    @Test func aFontAddedToAnotherRootBehindTheRegistrysBackIsPickedUpByRescanAndByARescanOfThatRoot() throws {
        let scratch = ProcessScratch.directory("incremental-rescan")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let other = Self.folder(["AvenirFixture-Regular.ttf"], in: scratch, "other")
        try registry.register(paths: [other])
        Fixtures.copy(["AvenirFixture-Bold.ttf"], to: other)
        Fixtures.copy(["NotoFixture-Bold.ttf"], to: configured)
        // A change of a third root does not walk `other` or `configured`: their additions wait for a rescan.
        let third = Self.folder(["AvenirFixture-Italic.ttf"], in: scratch, "third")
        let registered = try registry.register(paths: [third])
        #expect(registered.added.map(\.file) == [third + "/AvenirFixture-Italic.ttf"])
        // A watcher's rescan of the root whose folder changed finds what was added there, and only that.
        let watched = registry.rescan(roots: [other])
        #expect(watched.added.map(\.file) == [other + "/AvenirFixture-Bold.ttf"])
        #expect(watched.removed.isEmpty)
        // Rescan walks every root: the configured folder's addition is found, nothing is lost.
        let rescanned = registry.rescan()
        #expect(rescanned.added.map(\.file) == [configured + "/NotoFixture-Bold.ttf"])
        #expect(rescanned.removed.isEmpty)
        #expect(Set(registry.index.faces.map(\.file)).count == 5)
        // A removal behind its back too.
        try FileManager.default.removeItem(atPath: other + "/AvenirFixture-Regular.ttf")
        let removed = registry.rescan(roots: [other])
        #expect(removed.removed.map(\.file) == [other + "/AvenirFixture-Regular.ttf"])
    }

    @Test func unregisterRemovesExactlyItsOwnFacesAndTheOthersStayAsAFullScanFindsThem() throws {
        let scratch = ProcessScratch.directory("incremental-unregister")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let a = Self.folder(["AvenirFixture-Regular.ttf", "AvenirFixture-Bold.ttf"], in: scratch, "a")
        let b = Self.folder(["AvenirFixture-Italic.ttf", "NotoFixture-Bold.ttf"], in: scratch, "b")
        let c = Self.folder(["AvenirFixture-Medium.ttf"], in: scratch, "c")
        try registry.register(paths: [a])
        try registry.register(paths: [b], filesOwnedBy: Syscall.userID)
        try registry.register(paths: [c])
        let report = try registry.unregister(paths: [b])
        #expect(Set(report.removed.map(\.file)) == [b + "/AvenirFixture-Italic.ttf", b + "/NotoFixture-Bold.ttf"])
        #expect(report.added.isEmpty)
        #expect(!registry.index.faces.contains { $0.file.hasPrefix(b + "/") })
        // What the changes left is what walking every root finds: a rescan changes nothing.
        let before = Self.keys(registry.index), problems = registry.index.problems
        let rescanned = registry.rescan()
        #expect(rescanned.added.isEmpty && rescanned.removed.isEmpty)
        #expect(Self.keys(registry.index) == before)
        #expect(registry.index.problems == problems)
    }

    @Test func aFileReachedByTwoRootsIsServedOnceByTheFirstAndByTheSecondOnceTheFirstIsUnregistered() throws {
        let scratch = ProcessScratch.directory("incremental-duplicate")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let a = Self.folder(["AvenirFixture-Regular.ttf"], in: scratch, "a")
        let b = Self.folder([], in: scratch, "b")
        // The same file (one inode) in two registered folders.
        try FileManager.default.linkItem(atPath: a + "/AvenirFixture-Regular.ttf", toPath: b + "/Same.ttf")
        try registry.register(paths: [a])
        let second = try registry.register(paths: [b])
        #expect(second.added.isEmpty)
        #expect(
            registry.index.faces.filter { $0.postscriptName.hasPrefix("Avenir") }.map(\.file) == [
                a + "/AvenirFixture-Regular.ttf"
            ])
        // Unregistering the first root, which `b` was not walked with, brings `b`'s path of it in.
        let report = try registry.unregister(paths: [a])
        #expect(report.removed.map(\.file) == [a + "/AvenirFixture-Regular.ttf"])
        #expect(report.added.map(\.file) == [b + "/Same.ttf"])
        let rescanned = registry.rescan()
        #expect(rescanned.added.isEmpty && rescanned.removed.isEmpty)
    }

    /// The faces, problems and duplicate groups of an index, to compare two registries by.
    static func contents(_ index: FontIndex) -> (faces: [String], problems: [ScanProblem], duplicates: [DuplicateGroup])
    {
        (keys(index).sorted(), index.problems, index.duplicates)
    }

    @Test func changesInTheMiddleAndAtTheEndOfTheRootsLeaveTheIndexAFreshRegistryOverTheSameRootsBuilds() throws {
        let scratch = ProcessScratch.directory("incremental-combination")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let a = Self.folder(["AvenirFixture-Regular.ttf"], in: scratch, "a")
        _ = FileManager.default.createFile(atPath: a + "/Empty.ttf", contents: Data())
        let b = Self.folder(["AvenirFixture-Bold.ttf"], in: scratch, "b")
        // The same file (one inode) in `a` and `b`: `a` is first and keeps it while registered.
        try FileManager.default.linkItem(atPath: a + "/AvenirFixture-Regular.ttf", toPath: b + "/Same.ttf")
        let c = Self.folder(["AvenirFixture-Italic.ttf"], in: scratch, "c")
        let d = Self.folder(["AvenirFixture-Medium.ttf"], in: scratch, "d")
        try registry.register(paths: [a])
        try registry.register(paths: [b], filesOwnedBy: Syscall.userID)
        try registry.register(paths: [c])
        // The first of the registered roots goes: what the later ones put together after it
        // is put together again, `b` now keeping the linked file.
        try registry.unregister(paths: [a])
        // One appended and taken off again; one in the middle rescanned after a change.
        try registry.register(paths: [d])
        try registry.unregister(paths: [d])
        Fixtures.copy(["NotoFixture-Bold.ttf"], to: c)
        registry.rescan(roots: [c])
        try registry.register(paths: [a])
        let fresh = try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: [configured, b, c, a], cacheDirectory: scratch + "/fresh-cache"))
        let changed = Self.contents(registry.index), expected = Self.contents(fresh.index)
        #expect(changed.faces == expected.faces)
        #expect(changed.problems == expected.problems)
        #expect(changed.duplicates == expected.duplicates)
        #expect(changed.faces.contains { $0.hasPrefix(b + "/Same.ttf#") })
        #expect(!changed.faces.contains { $0.hasPrefix(a + "/AvenirFixture-Regular.ttf#") })
        #expect(changed.problems.map(\.path) == [a + "/Empty.ttf"])
        // And a rescan of every root, which puts every root together anew, changes nothing.
        let rescanned = registry.rescan()
        #expect(rescanned.added.isEmpty && rescanned.removed.isEmpty)
        #expect(Self.contents(registry.index).problems == expected.problems)
    }

    @Test func aUsersOwnRootLeavesTheIndexFileAloneAndTheNextStartIsWarm() throws {
        let scratch = ProcessScratch.directory("incremental-index-file")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let path = scratch + "/cache/" + FontRegistry.indexFileName
        let written = try Syscall.status(ofPath: path, followLinks: false)
        let own = Self.folder(["AvenirFixture-Regular.ttf"], in: scratch, "own")
        let report = try registry.register(paths: [own], filesOwnedBy: Syscall.userID)
        #expect(report.added.map(\.file) == [own + "/AvenirFixture-Regular.ttf"])
        #expect(registry.index.faces.contains { $0.file == own + "/AvenirFixture-Regular.ttf" })
        // Before: rewritten with the user's root in it, so the next start (configured without it) was cold.
        let after = try Syscall.status(ofPath: path, followLinks: false)
        #expect(after.inode == written.inode && after.modifiedNanoseconds == written.modifiedNanoseconds)
        let next = try Self.registry(scratch, configured: [configured])
        #expect(next.startMode == .warm)
        #expect(next.index.faces.map(\.file) == [configured + "/NotoFixture-Regular.ttf"])
        // An administrator's root (no owner) is recorded: a start configured with it is warm too.
        let shared = Self.folder(["AvenirFixture-Bold.ttf"], in: scratch, "shared")
        try next.register(paths: [shared])
        let third = try Self.registry(scratch, configured: [configured, shared])
        #expect(third.startMode == .warm)
        #expect(Set(third.index.faces.map(\.file)).count == 2)
    }

    @Test func aRefusedRegisterOfARegisteredRootLeavesThatRootsOwnerAndItsFacesAlone() throws {
        let scratch = ProcessScratch.directory("incremental-refused")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let shared = Self.folder(["AvenirFixture-Regular.ttf"], in: scratch, "shared")
        try registry.register(paths: [shared])
        // Another uid's Register of the same path is refused...
        #expect(throws: RegistryError.self) {
            try registry.register(paths: [shared], filesOwnedBy: Syscall.userID &+ 4242)
        }
        // ...and does not make the root its own: before, its owner stuck and the next rescan
        // refused every file of the root as not theirs.
        let rescanned = registry.rescan()
        #expect(rescanned.removed.isEmpty)
        #expect(registry.index.faces.contains { $0.file == shared + "/AvenirFixture-Regular.ttf" })
        #expect(!registry.index.problems.contains { $0.kind == .notOwned })
    }

    /// Whether `registry` serves what a fresh registry over `roots` (in that order) builds.
    static func matchesFresh(_ registry: FontRegistry, _ roots: [String], scratch: String, step: Int) throws -> Bool {
        let fresh = try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: roots, cacheDirectory: scratch + "/fresh-cache-\(step)"))
        let changed = contents(registry.index), expected = contents(fresh.index)
        return registry.registeredPaths == roots && changed.faces == expected.faces
            && changed.problems == expected.problems && changed.duplicates == expected.duplicates
    }

    /// Issue 24: a `Register` appends its roots' scans and an `Unregister` of the last roots
    /// takes theirs off in place, without passing over the other roots; after every such change
    /// the registry serves what a fresh one over the same roots builds (one inode reached by
    /// three roots is served by the first registered, and by the next once that one goes).
    @Test func registersAndUnregistersAtTheEndLeaveAfterEachChangeTheIndexAFreshRegistryBuilds() throws {
        let scratch = ProcessScratch.directory("incremental-end")
        defer { Fixtures.cleanUp(scratch) }
        let configured = Self.folder(["NotoFixture-Regular.ttf"], in: scratch, "configured")
        let registry = try Self.registry(scratch, configured: [configured])
        let p = Self.folder(["AvenirFixture-Regular.ttf"], in: scratch, "p")
        let q = Self.folder(["AvenirFixture-Bold.ttf"], in: scratch, "q")
        let r = Self.folder(["AvenirFixture-Italic.ttf"], in: scratch, "r")
        _ = FileManager.default.createFile(atPath: r + "/Empty.ttf", contents: Data())
        for folder in [q, r] {
            try FileManager.default.linkItem(atPath: p + "/AvenirFixture-Regular.ttf", toPath: folder + "/Same.ttf")
        }
        let steps: [(change: () throws -> Void, roots: [String])] = [
            ({ try registry.register(paths: [p]) }, [configured, p]),
            ({ try registry.register(paths: [q], filesOwnedBy: Syscall.userID) }, [configured, p, q]),
            ({ try registry.unregister(paths: [q]) }, [configured, p]),
            ({ try registry.register(paths: [r, q]) }, [configured, p, r, q]),
            // The last two at once, then the last: `p`'s claim on the shared inode goes with it.
            ({ try registry.unregister(paths: [q, r]) }, [configured, p]),
            ({ try registry.unregister(paths: [p]) }, [configured]),
            ({ try registry.register(paths: [q]) }, [configured, q]),
            ({ try registry.register(paths: [p]) }, [configured, q, p]),
            ({ try registry.unregister(paths: [p]) }, [configured, q]),
        ]
        for (step, (change, roots)) in steps.enumerated() {
            try change()
            #expect(try Self.matchesFresh(registry, roots, scratch: scratch, step: step), "after step \(step)")
        }
        #expect(registry.index.faces.contains { $0.file == q + "/Same.ttf" })
        // Registered again after it went: the registered set follows the roots.
        #expect(throws: RegistryError.alreadyRegistered(path: q)) { try registry.register(paths: [q]) }
        #expect(throws: RegistryError.notRegistered(path: p)) { try registry.unregister(paths: [p]) }
    }
}

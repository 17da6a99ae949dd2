import FontRegJSON
import FontRegSystem
import FontRegTestSupport
import Foundation
import Testing
import Varlink

@testable import FontRegCore
@testable import FontRegServer

/// Issue 24: files a local user plants beside the socket or in the state directory never stop
/// the daemon, are never trusted, and what is not the daemon's own is reported and left alone.
@Suite("planted files: snapshots, state files, the socket's directory")
struct PlantedFileTests {
    /// What is planted at `<socket>.snapshot` before the daemon starts.
    enum Plant: String, CaseIterable, Sendable {
        case generationMax, generationMaxMinusOne, symbolicLink, hardLink, otherUsersFile
    }

    /// The bytes of a valid snapshot of the fixtures (checksum and all) recording `generation`.
    static func forgedSnapshot(generation: UInt64, scratch: String) throws -> [UInt8] {
        let fonts = scratch + "/seed-fonts"
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        Fixtures.copy(["AvenirFixture-Bold.ttf"], to: fonts)
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: scratch + "/seed-cache"))
        try SnapshotWriter.write(registry.index, directory: scratch, name: "seed.snapshot")
        let bytes = try MappedSnapshot(path: scratch + "/seed.snapshot").publicBytes(generation: generation)
        #expect(try MappedSnapshot(bytes: bytes).generation == generation, "the forged file passes every check")
        return bytes
    }

    /// Whether `condition` holds within `seconds` (``waitFor(_:timeout:interval:_:)`` bounds the wait).
    static func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        (try? waitFor("a planted file's effect", timeout: seconds, interval: 0.02, condition)) != nil
    }

    @Test(arguments: Plant.allCases)
    func aPlantedSnapshotNeverStopsTheDaemonWhichPublishesItsOwn(plant: Plant) throws {
        let directory = TemporaryDirectory()
        let socket = directory.file("fontregd.sock")
        let planted = SnapshotPublisher.path(forSocket: socket)
        let scratch = directory.file("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let target = scratch + "/target.snapshot"
        switch plant {
        case .generationMax:
            try Data(try Self.forgedSnapshot(generation: .max, scratch: scratch)).write(
                to: URL(fileURLWithPath: planted))
            chmod(planted, 0o644)
        case .generationMaxMinusOne:
            try Data(try Self.forgedSnapshot(generation: .max - 1, scratch: scratch)).write(
                to: URL(fileURLWithPath: planted))
            chmod(planted, 0o644)
        case .symbolicLink, .hardLink:
            // A file of the daemon's user elsewhere, which a mark written in place would change.
            try Data(try Self.forgedSnapshot(generation: .max - 1, scratch: scratch)).write(
                to: URL(fileURLWithPath: target))
            chmod(target, 0o644)
            if plant == .symbolicLink {
                try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: target)
            } else {
                #expect(link(target, planted) == 0)
            }
        case .otherUsersFile:
            let user = try TestUser.a
            try Data(try Self.forgedSnapshot(generation: .max - 1, scratch: scratch)).write(
                to: URL(fileURLWithPath: planted))
            chmod(planted, 0o644)
            #expect(chown(planted, user.uid, user.gid) == 0)
        }
        let targetBefore = try? Data(contentsOf: URL(fileURLWithPath: target))

        let daemon = try DaemonProcess(directory: directory, extraArguments: ["--watch", "no"])
        #expect(try daemon.client().call("io.fontreg.Registry.GetStatus")["faces"] != nil)
        // Its own file, at a generation it counted itself; then a change publishes the next.
        var first: MappedSnapshot?
        #expect(
            Self.eventually {
                first = try? MappedSnapshot(path: planted)
                return first?.fileStatus?.owner == geteuid() && first?.fileStatus?.linkCount == 1
                    && first?.generation ?? .max < SnapshotPublisher.largestContinuedGeneration
            }, "the daemon publishes a snapshot of its own")
        var info = stat()
        #expect(lstat(planted, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        _ = try daemon.client().call("io.fontreg.Registry.Rescan")
        #expect(Self.eventually { first?.isCurrent == false }, "the next change supersedes it")
        let second = try MappedSnapshot(path: planted)
        #expect(second.isCurrent && second.generation > first?.generation ?? .max)
        #expect(second.generation < SnapshotPublisher.largestContinuedGeneration)
        #expect(daemon.process.isRunning)
        if plant == .generationMax || plant == .generationMaxMinusOne {
            // Written by root here, so it passes as the daemon's own: its number is what is refused.
            #expect(daemon.log.contains("records the absurd generation"))
        }
        if let targetBefore {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: target)) == targetBefore, "nothing written through a link")
        }
        #expect(try daemon.stop() == 0)
    }

    @Test func anAbsurdGenerationInTheDaemonsOwnFileStartsOverWithoutArithmeticThatTraps() {
        #expect(SnapshotPublisher.continuedGeneration(after: nil) == 0)
        #expect(SnapshotPublisher.continuedGeneration(after: 40) == 41)
        #expect(SnapshotPublisher.continuedGeneration(after: .max) == 0)
        #expect(SnapshotPublisher.continuedGeneration(after: .max - 1) == 0)
        #expect(SnapshotPublisher.continuedGeneration(after: SnapshotPublisher.largestContinuedGeneration) == 0)
        #expect(SnapshotPublisher.mark(0) == 1, "a superseded mark is never the 0 that means current")
    }

    @Test(arguments: [
        (UInt32(0o755), "safe"), (0o775, "refused"), (0o777, "refused"), (0o1777, "warning"), (0o1775, "warning"),
    ])
    func theSocketsDirectoryIsRefusedWhenOthersMayReplaceFilesInItAndWarnedOfWhenSticky(
        mode: UInt32, expected: String
    ) {
        var info = stat()
        info.st_mode = S_IFDIR | mode_t(mode)
        let verdict = SocketDirectory.verdict(directory: "/d", status: FileStatus(info), daemonUser: 0)
        switch verdict {
        case .safe: #expect(expected == "safe")
        case .warning: #expect(expected == "warning")
        case .refused: #expect(expected == "refused")
        }
    }

    @Test func theDaemonDoesNotStartWithItsSocketInADirectoryOthersMayWriteWithoutTheStickyBit() throws {
        let directory = TemporaryDirectory()
        let open = directory.file("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o777)
        let daemon = try DaemonProcess(
            directory: directory, extraArguments: ["--watch", "no"], socketPath: open + "/fontregd.sock",
            waitUntilServing: false)
        #expect(try daemon.waitForExit() != 0)
        #expect(daemon.log.contains("writable by other users and not sticky"))
        #expect(!FileManager.default.fileExists(atPath: open + "/fontregd.sock"))

        chmod(open, 0o1777)
        let sticky = try DaemonProcess(
            directory: directory, extraArguments: ["--watch", "no"], socketPath: open + "/fontregd.sock")
        #expect(sticky.log.contains("is writable by other users (sticky)"))
        #expect(try sticky.stop() == 0)
    }

    @Test(arguments: ["registrations.json", "platform.json"])
    func aFIFOOrLinkAtAStateFileIsReportedAndTheDaemonStartsWithoutBlocking(name: String) throws {
        for kind in ["fifo", "link"] {
            let directory = TemporaryDirectory()
            let state = directory.file("state")
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            let path = state + "/" + name
            if kind == "fifo" {
                #expect(mkfifo(path, 0o600) == 0)
            } else {
                try Data(#"{"version": 1, "paths": []}"#.utf8).write(to: URL(fileURLWithPath: directory.file("x")))
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: directory.file("x"))
            }
            let daemon = try DaemonProcess(
                directory: directory, extraArguments: ["--watch", "no", "--allow-root", directory.file("allowed")])
            let status = try daemon.client().call("io.fontreg.Registry.GetStatus")
            let reasons = (status["problems"]?.arrayValue ?? []).filter { $0["path"]?.stringValue == path }
                .compactMap { $0["reason"]?.stringValue }
            let words = kind == "fifo" ? "is a FIFO, not a regular file" : "is a symbolic link, not a regular file"
            #expect(reasons.contains { $0.contains(words) }, "\(kind) at \(name): \(reasons)")
            #expect(daemon.log.contains(words))
            var info = stat()
            #expect(lstat(path, &info) == 0, "left in place")
            #expect(info.st_mode & S_IFMT == (kind == "fifo" ? S_IFIFO : S_IFLNK))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: state).allSatisfy { !$0.contains("corrupt") },
                "nothing moved aside")
            if name == "registrations.json" {
                // A saved change puts a regular file at the name (never writing through it): settled.
                let fonts = directory.file("allowed")
                try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
                Fixtures.copy(["AvenirFixture-Bold.ttf"], to: fonts)
                _ = try daemon.client().call(
                    "io.fontreg.Registry.Register", ["paths": [.string(fonts)], "persist": true])
                #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
                let after = try daemon.client().call("io.fontreg.Registry.GetStatus")
                #expect(!(after["problems"]?.arrayValue ?? []).contains { $0["path"]?.stringValue == path })
                if kind == "link" {
                    #expect(
                        try String(contentsOfFile: directory.file("x"), encoding: .utf8)
                            == #"{"version": 1, "paths": []}"#)
                }
            }
            #expect(try daemon.stop() == 0)
        }
    }
}

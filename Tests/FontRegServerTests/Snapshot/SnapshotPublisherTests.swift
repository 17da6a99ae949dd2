import FontRegSystem
import FontRegTestSupport
import Foundation
import Synchronization
import Testing

@testable import FontRegCore
@testable import FontRegServer

/// The daemon's snapshot beside its socket: written at start and after every change, 0644, each
/// replaced file marked superseded, removed at stop.
@Suite struct SnapshotPublisherTests {
    @Test func theSnapshotFollowsEveryChangeAndMarksTheFileItReplaces() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let fonts = directory + "/fonts", more = directory + "/more"
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: more, withIntermediateDirectories: true)
        Fixtures.copy(["AvenirFixture-Bold.ttf", "AvenirFixture-Medium.ttf"], to: fonts)
        Fixtures.copy(["AvenirFixture-Heavy.ttf"], to: more)
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: directory + "/cache"))
        let socket = directory + "/fontregd.sock"
        // Stands for the socket: the snapshot's mode follows its permissions.
        #expect(FileManager.default.createFile(atPath: socket, contents: nil, attributes: [.posixPermissions: 0o666]))
        let publisher = SnapshotPublisher(registry: registry, socketPath: socket, logger: Logger(minimumLevel: .error))
        #expect(publisher.path == socket + ".snapshot")
        try publisher.start()
        publisher.flush()

        let first = try MappedSnapshot(path: publisher.path)
        #expect(first.isCurrent)
        #expect(first.faceCount == 2)
        #expect(first.fileStatus?.permissions == 0o644)
        #expect(first.fileStatus?.owner == geteuid())

        try registry.register(paths: [more])
        publisher.flush()
        #expect(!first.isCurrent, "the replaced file is marked in place, visible through the old mapping")
        let second = try MappedSnapshot(path: publisher.path)
        #expect(second.isCurrent)
        #expect(second.generation > first.generation)
        #expect(second.face(postscriptName: "AvenirFixture-Heavy") != nil)

        registry.rescan()
        publisher.flush()
        #expect(!second.isCurrent, "every change is a new generation, even a rescan that finds nothing new")

        #expect(publisher.stop(before: .now() + 5))
        #expect(!FileManager.default.fileExists(atPath: publisher.path))
    }

    @Test func aRestartedPublisherContinuesTheGenerationsAndMarksTheFileItFinds() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let fonts = directory + "/fonts"
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        Fixtures.copy(["AvenirFixture-Bold.ttf"], to: fonts)
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: directory + "/cache"))
        let socket = directory + "/s.sock"
        // A file left by an earlier daemon that did not stop cleanly, at a high generation.
        try SnapshotWriter.write(registry.index, directory: directory, name: "s.sock.snapshot", generation: 40)
        let left = try MappedSnapshot(path: socket + ".snapshot")
        let publisher = SnapshotPublisher(registry: registry, socketPath: socket, logger: Logger(minimumLevel: .error))
        try publisher.start()
        publisher.flush()
        #expect(!left.isCurrent)
        let now = try MappedSnapshot(path: socket + ".snapshot")
        #expect(now.generation > 40)
        _ = publisher.stop(before: .now() + 5)
    }

    @Test(arguments: [(UInt32(0o666), UInt32(0o644)), (0o660, 0o640), (0o600, 0o600)])
    func theSnapshotIsReadableByThoseWhoMayConnectToTheSocket(socketMode: UInt32, snapshotMode: UInt32) {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let socket = directory + "/s.sock"
        #expect(
            FileManager.default.createFile(
                atPath: socket, contents: nil, attributes: [.posixPermissions: Int(socketMode)]))
        let publisher = SnapshotPublisher(
            registry: Fixtures.registry, socketPath: socket, logger: Logger(minimumLevel: .error))
        #expect(publisher.fileMode == snapshotMode)
    }

    @Test func aSourceWithNothingToPublishWithdrawsTheFile() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let withheld = Mutex(false)
        let registry = Fixtures.registry
        let publisher = SnapshotPublisher(
            registry: registry, socketPath: directory + "/s.sock",
            source: {
                let off = withheld.withLock { $0 }
                return (off ? nil : registry.index, "off=\(off)")
            }, logger: Logger(minimumLevel: .error))
        try publisher.start()
        publisher.flush()
        let published = try MappedSnapshot(path: publisher.path)
        withheld.withLock { $0 = true }
        publisher.schedule()
        publisher.flush()
        #expect(!published.isCurrent)
        #expect(!FileManager.default.fileExists(atPath: publisher.path))
        withheld.withLock { $0 = false }
        publisher.schedule()
        publisher.flush()
        #expect(try MappedSnapshot(path: publisher.path).generation > published.generation)
        _ = publisher.stop(before: .now() + 5)
    }
}

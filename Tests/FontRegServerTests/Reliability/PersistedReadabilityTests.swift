import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON

/// Issue 29 item 3: a start reuses the file classification an earlier run kept beside the index
/// file (``readability.cache``) for files whose file and directories are unchanged, and notices
/// a `chmod` or `setfacl` of the file or of any directory of its path between the runs, whether
/// the start is warm (the index file's check sees no font change) or cold.
@Suite("fontregd reuses the kept file classification only while nothing on a file's path changed", .serialized)
struct PersistedReadabilityTests {
    /// outer/ (0755) holding fonts/ (0755, the configured font directory) with Lato-Italic.ttf
    /// and sub/ (0755) with Lato-Regular.ttf, every file 0644: all public.
    struct Layout {
        let directory = TemporaryDirectory()
        let a: TestUser
        let b: TestUser
        var outer: String { directory.file("outer") }
        var fonts: String { outer + "/fonts" }
        var sub: String { fonts + "/sub" }
        var regular: String { sub + "/Lato-Regular.ttf" }
        var italic: String { fonts + "/Lato-Italic.ttf" }
        var kept: String { directory.file("cache") + "/readability.cache" }

        init() throws {
            (a, b) = (try TestUser.a, try TestUser.b)
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: BuildProducts.realFonts + "/Lato/Lato-Regular.ttf", toPath: regular)
            try FileManager.default.copyItem(atPath: BuildProducts.realFonts + "/Lato/Lato-Italic.ttf", toPath: italic)
            for folder in [outer, fonts, sub] { chmod(folder, 0o755) }
            for font in [regular, italic] { chmod(font, 0o644) }
        }

        /// Starts the daemon on ``fonts`` with the layout's cache directory, so that a second
        /// start is warm while no font file changed.
        /// The socket accepts before the server serves: waits for the classification's log line.
        func daemon() throws -> DaemonProcess {
            let daemon = try DaemonProcess(directory: directory, fonts: [fonts], extraArguments: ["--watch", "no"])
            try waitFor("the file classification") { daemon.log.contains("file readability: ") }
            return daemon
        }

        /// The PostScript names `user` lists, asked of `daemon`.
        func names(_ user: TestUser, _ daemon: DaemonProcess) throws -> Set<String> {
            let reply = try user.varlink([#"{"method":"io.fontreg.Registry.ListFaces"}"#], socket: daemon.socketPath)
            let value = try JSONParser.parse(Array(try #require(reply.first).utf8))
            return Set(
                (value["parameters"]?["faces"]?.arrayValue ?? []).compactMap { $0["postscriptName"]?.stringValue })
        }

        /// Runs the daemon once, checks both users see both faces, and stops it (the classification kept).
        func firstRun() throws {
            let daemon = try daemon()
            for user in [a, b] {
                #expect(try names(user, daemon) == ["Lato-Regular", "Lato-Italic"], "\(user.name), first run")
            }
            #expect(try daemon.stop() == 0)
            #expect(daemon.log.contains("file readability: 0 of 2 files' answers reused, 2 asked"), "\(daemon.log)")
            #expect(FileManager.default.fileExists(atPath: kept))
        }
    }

    /// Runs `setfacl` with `arguments`.
    static func setfacl(_ arguments: [String]) throws {
        let result = try runCommand(["/usr/bin/setfacl"] + arguments)
        try #require(result.status == 0, "setfacl \(arguments): \(result.stderr)")
    }

    @Test func aSecondStartOnUnchangedFilesAsksTheKernelAboutNone() throws {
        let layout = try Layout()
        try layout.firstRun()
        let status = try FileManager.default.attributesOfItem(atPath: layout.kept)
        #expect((status[.posixPermissions] as? Int) == 0o600, "\(status)")
        let daemon = try layout.daemon()
        #expect(daemon.log.contains("warm start from the index file"), "\(daemon.log)")
        #expect(daemon.log.contains("file readability: 2 of 2 files' answers reused, 0 asked"), "\(daemon.log)")
        #expect(try layout.names(layout.b, daemon) == ["Lato-Regular", "Lato-Italic"])
        #expect(try daemon.stop() == 0)
    }

    /// The directory's mode is in no stamp of the index file: the start stays warm, and only the
    /// kept answer's fingerprint of the directory tells that the answer is out of date.
    @Test func aDirectoryClosedBetweenRunsHidesItsFontFromUsersAtTheWarmStart() throws {
        let layout = try Layout()
        try layout.firstRun()
        chmod(layout.sub, 0o700)
        let daemon = try layout.daemon()
        #expect(daemon.log.contains("warm start from the index file"), "\(daemon.log)")
        #expect(daemon.log.contains("file readability: 1 of 2 files' answers reused, 1 asked"), "\(daemon.log)")
        for user in [layout.a, layout.b] {
            #expect(try layout.names(user, daemon) == ["Lato-Italic"], "\(user.name) after chmod 0700 of sub/")
        }
        #expect(try daemon.stop() == 0)
    }

    /// A directory above the configured font directory counts as much as one inside it.
    @Test func aDirectoryAboveTheFontDirectoryClosedBetweenRunsHidesEveryFontAtTheWarmStart() throws {
        let layout = try Layout()
        try layout.firstRun()
        chmod(layout.outer, 0o711)  // still searchable by all, no longer even (its owner may list it)
        let daemon = try layout.daemon()
        #expect(daemon.log.contains("warm start from the index file"), "\(daemon.log)")
        #expect(daemon.log.contains("file readability: 0 of 2 files' answers reused, 2 asked"), "\(daemon.log)")
        // Uneven, so each user is asked about by the kernel: both may still read both files.
        #expect(try layout.names(layout.a, daemon) == ["Lato-Regular", "Lato-Italic"])
        chmod(layout.outer, 0o700)
        #expect(try daemon.stop() == 0)
        let closed = try layout.daemon()
        #expect(closed.log.contains("warm start from the index file"), "\(closed.log)")
        for user in [layout.a, layout.b] {
            #expect(try layout.names(user, closed).isEmpty, "\(user.name) after chmod 0700 of outer/")
        }
        #expect(try closed.stop() == 0)
    }

    @Test func anACLDenyingOneUserOnADirectoryBetweenRunsHidesTheFontFromThatUserOnly() throws {
        let layout = try Layout()
        try layout.firstRun()
        try Self.setfacl(["-m", "u:\(layout.b.name):---", layout.sub])
        let daemon = try layout.daemon()
        #expect(daemon.log.contains("warm start from the index file"), "\(daemon.log)")
        #expect(try layout.names(layout.a, daemon) == ["Lato-Regular", "Lato-Italic"])
        #expect(try layout.names(layout.b, daemon) == ["Lato-Italic"])
        #expect(try daemon.stop() == 0)
    }

    /// An ACL or mode change of the font file itself changes its stamp in the index file (a cold
    /// start), and the kept answer's fingerprint of the file.
    @Test func anACLOrAChmodOfTheFileBetweenRunsIsNoticed() throws {
        let layout = try Layout()
        try layout.firstRun()
        try Self.setfacl(["-m", "u:\(layout.b.name):---", layout.regular])
        let daemon = try layout.daemon()
        #expect(daemon.log.contains("file readability: 1 of 2 files' answers reused, 1 asked"), "\(daemon.log)")
        #expect(try layout.names(layout.a, daemon) == ["Lato-Regular", "Lato-Italic"])
        #expect(try layout.names(layout.b, daemon) == ["Lato-Italic"])
        #expect(try daemon.stop() == 0)
        try Self.setfacl(["-b", layout.regular])
        chmod(layout.regular, 0o600)
        let closed = try layout.daemon()
        for user in [layout.a, layout.b] {
            #expect(try layout.names(user, closed) == ["Lato-Italic"], "\(user.name) after chmod 0600")
        }
        #expect(try closed.stop() == 0)
    }

    /// As the index file: a kept classification another user owns, or that others may write, is not read.
    @Test func aKeptClassificationNotTheDaemonsOwnPrivateFileIsIgnored() throws {
        let layout = try Layout()
        try layout.firstRun()
        chown(layout.kept, layout.a.uid, layout.a.gid)
        let daemon = try layout.daemon()
        #expect(
            daemon.log.contains("readability.cache is not this user's own private file; not trusted"), "\(daemon.log)")
        #expect(daemon.log.contains("file readability: 0 of 2 files' answers reused, 2 asked"), "\(daemon.log)")
        #expect(try daemon.stop() == 0)
        // The run above wrote its own again.
        let status = try FileManager.default.attributesOfItem(atPath: layout.kept)
        #expect((status[.ownerAccountID] as? Int) == 0, "\(status)")
        chmod(layout.kept, 0o666)
        let writable = try layout.daemon()
        #expect(writable.log.contains("not trusted"), "\(writable.log)")
        #expect(writable.log.contains("file readability: 0 of 2 files' answers reused, 2 asked"), "\(writable.log)")
        #expect(try writable.stop() == 0)
    }
}

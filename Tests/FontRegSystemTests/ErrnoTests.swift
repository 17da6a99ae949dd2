import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegSystem

/// The typed errno (issue 23) and the typed operations other modules call instead of the kernel.
@Suite struct ErrnoTests {
    @Test(arguments: [
        (Errno.noSuchFileOrDirectory, ENOENT, "ENOENT"), (.permissionDenied, EACCES, "EACCES"),
        (.notPermitted, EPERM, "EPERM"), (.interrupted, EINTR, "EINTR"), (.wouldBlock, EAGAIN, "EAGAIN"),
        (.badFileDescriptor, EBADF, "EBADF"), (.fileExists, EEXIST, "EEXIST"),
        (.tooManySymbolicLinkLevels, ELOOP, "ELOOP"), (.notDirectory, ENOTDIR, "ENOTDIR"),
        (.improperLink, EXDEV, "EXDEV"), (.fileTooLarge, EFBIG, "EFBIG"), (.brokenPipe, EPIPE, "EPIPE"),
        (.connectionReset, ECONNRESET, "ECONNRESET"), (.connectionRefused, ECONNREFUSED, "ECONNREFUSED"),
        (.addressInUse, EADDRINUSE, "EADDRINUSE"), (.tooManyOpenFiles, EMFILE, "EMFILE"),
    ])
    func namedCasesCarryTheirCValueAndSymbolicName(errno: Errno, raw: Int32, name: String) {
        #expect(errno.rawValue == raw)
        #expect(errno.name == name)
        #expect(errno == Errno(rawValue: raw))
    }

    @Test func descriptionGivesTheCLibrarysWordsAndTheName() {
        #expect(Errno.noSuchFileOrDirectory.message == "No such file or directory")
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory (ENOENT)")
        #expect(Errno.permissionDenied.description == "Permission denied (EACCES)")
    }

    @Test func aValueWithoutANameKeepsItsNumber() {
        let unnamed = Errno(rawValue: 4095)
        #expect(unnamed.name == "errno 4095")
        #expect(unnamed.description.hasSuffix("(errno 4095)"))
    }

    @Test func systemErrorDescriptionNamesOperationSubjectAndMessage() {
        let error = SystemError("open", subject: "/nowhere", errno: .noSuchFileOrDirectory)
        #expect(error.description == "open /nowhere: No such file or directory")
        #expect(SystemError("listen", errno: .addressInUse).description == "listen: Address already in use")
        #expect(error.about("/elsewhere") == SystemError("open", subject: "/elsewhere", errno: .noSuchFileOrDirectory))
    }

    @Test func aFailedCallThrowsItsTypedErrno() {
        #expect(throws: SystemError("stat", subject: "/nowhere/at/all", errno: .noSuchFileOrDirectory)) {
            try Syscall.status(ofPath: "/nowhere/at/all", followLinks: true)
        }
    }

    @Test func makeDirectoryCreatesOneLevelAndAcceptsAnExistingOne() throws {
        let base = Fixtures.temporaryDirectory()
        try Syscall.makeDirectory(base + "/state", mode: 0o750)
        let status = try Syscall.status(ofPath: base + "/state", followLinks: false)
        #expect(status.kind == .directory)
        try Syscall.makeDirectory(base + "/state")
        #expect(throws: SystemError("mkdir", subject: base + "/a/b", errno: .noSuchFileOrDirectory)) {
            try Syscall.makeDirectory(base + "/a/b")
        }
    }

    @Test func setPermissionsGivesExactlyTheMode() throws {
        let path = Fixtures.temporaryDirectory() + "/file"
        try AtomicFile.write([1, 2, 3], directory: (path as NSString).deletingLastPathComponent, name: "file")
        try Syscall.setPermissions(ofPath: path, to: 0o604)
        #expect(try Syscall.status(ofPath: path, followLinks: true).permissions == 0o604)
    }

    @Test func linkTextReadsALinkWithoutResolvingIt() throws {
        let base = Fixtures.temporaryDirectory()
        try FileDescriptor.open(base, as: .directory).makeSymbolicLink("link", to: "../somewhere/else")
        #expect(try Syscall.linkText(ofPath: base + "/link") == "../somewhere/else")
        #expect(throws: SystemError("readlink", subject: base, errno: .invalidArgument)) {
            try Syscall.linkText(ofPath: base)
        }
    }

    @Test func checkWritableRefusesAMissingPath() throws {
        try Syscall.checkWritable(Fixtures.temporaryDirectory())
        #expect(throws: SystemError("access", errno: .noSuchFileOrDirectory)) {
            try Syscall.checkWritable("/nowhere/at/all")
        }
    }

    @Test func processIdentityIsTheKernels() {
        #expect(Syscall.userID == getuid())
        #expect(Syscall.effectiveUserID == geteuid())
        #expect(Syscall.processID == getpid())
        #expect(Syscall.currentDirectory == FileManager.default.currentDirectoryPath)
    }

    @Test func listenMakesABoundSocketAcceptConnections() throws {
        let path = Fixtures.temporaryDirectory() + "/socket"
        let fd = try UnixSocket.stream(nonBlocking: true)
        defer { Syscall.close(fd) }
        try UnixSocket.bind(fd, to: path)
        #expect(!UnixSocket.isListening(at: path))
        try UnixSocket.listen(fd, backlog: 4, path: path)
        #expect(UnixSocket.isListening(at: path))
    }

    @Test func peerCanReadAnswersWithATypedErrno() throws {
        let base = Fixtures.temporaryDirectory()
        try Syscall.setPermissions(ofPath: base, to: 0o755)
        try AtomicFile.write([1], directory: base, name: "open", mode: 0o644, exactMode: true)
        #expect(PeerFileAccess.peerCanRead(base + "/open", uid: 65534, gid: 65534, groups: []) == nil)
        // Not root, it cannot ask for another user and reveals nothing (nil); root asks the kernel.
        let missing = PeerFileAccess.peerCanRead(base + "/missing", uid: 65534, gid: 65534, groups: [])
        #expect(missing == (geteuid() == 0 ? .noSuchFileOrDirectory : nil))
    }
}

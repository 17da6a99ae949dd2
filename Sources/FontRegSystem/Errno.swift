import Glibc

/// An error number a system call left, with the names callers compare against.
///
/// The cases a caller of this package meets have names, as swift-system's `Errno` does
/// (`Errno.noSuchFileOrDirectory` is `ENOENT`); any other value keeps its number.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public let rawValue: Int32

    /// The error number `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno` (internal: read it only right after the call that failed).
    static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// `EPERM`: the operation is not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `ESRCH`: no such process.
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    /// `EINTR`: a signal interrupted the call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: an input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// `EBADF`: not an open descriptor.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN` (`EWOULDBLOCK` on Linux): the call would block.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOMEM`: out of memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EEXIST`: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `EXDEV`: a link across devices; here also a path that leads outside a directory it must stay beneath.
    public static let improperLink = Errno(rawValue: EXDEV)
    /// `ENOTDIR`: a path component is not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`: the file is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EINVAL`: an invalid argument.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `ENFILE`: too many open files in the system.
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    /// `EMFILE`: too many open files in the process.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// `EFBIG`: the file is too large.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// `EPIPE`: the other end of a pipe or socket is closed.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENOSYS`: the kernel does not have the call.
    public static let noFunction = Errno(rawValue: ENOSYS)
    /// `ELOOP`: too many symbolic links, or a link where `O_NOFOLLOW` allows none.
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    /// `EMSGSIZE`: the message is too long.
    public static let messageTooLong = Errno(rawValue: EMSGSIZE)
    /// `EADDRINUSE`: the address is already in use.
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    /// `ECONNABORTED`: the connection was aborted before it was accepted.
    public static let connectionAbort = Errno(rawValue: ECONNABORTED)
    /// `ECONNRESET`: the peer reset the connection.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    /// `ECONNREFUSED`: nobody listens at the address.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)

    /// The symbolic names of the values above.
    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EEXIST: "EEXIST", EXDEV: "EXDEV",
        ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE",
        EFBIG: "EFBIG", EPIPE: "EPIPE", ENOSYS: "ENOSYS", ELOOP: "ELOOP", EMSGSIZE: "EMSGSIZE",
        EADDRINUSE: "EADDRINUSE", ECONNABORTED: "ECONNABORTED", ECONNRESET: "ECONNRESET",
        ECONNREFUSED: "ECONNREFUSED",
    ]

    /// The symbolic name, e.g. `ENOENT`; `errno <n>` for a value without a name here.
    public var name: String { Self.names[rawValue] ?? "errno \(rawValue)" }

    /// The C library's words for the error, e.g. "No such file or directory".
    ///
    /// The corresponding call is `strerror`.
    public var message: String { String(cString: strerror(rawValue)) }

    /// The words and the name, e.g. "No such file or directory (ENOENT)".
    public var description: String { "\(message) (\(name))" }
}

import Glibc

/// Typed operations for the few calls other modules make on a path or on the process itself,
/// so that they need neither the C library nor `errno`.
extension Syscall {
    /// Creates the directory `path` (its parent must exist); a directory or other file already
    /// there is not an error.
    ///
    /// The corresponding call is `mkdir`.
    /// - Throws: ``SystemError`` for any error but `EEXIST`.
    package static func makeDirectory(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        guard Glibc.mkdir(path, mode_t(mode)) != 0 else { return }
        let code = Errno.current
        if code != .fileExists { throw SystemError("mkdir", subject: path, errno: code) }
    }

    /// Sets the permissions of the file at `path` to exactly `mode`, following a final symbolic link.
    ///
    /// The corresponding call is `chmod`.
    /// - Throws: ``SystemError`` naming the path.
    package static func setPermissions(ofPath path: String, to mode: UInt32) throws(SystemError) {
        try run("chmod", subject: path) { Glibc.chmod(path, mode_t(mode)) }
    }

    /// Checks that this process may write to `path` with its real uid and gid.
    ///
    /// The corresponding call is `access(path, W_OK)`.
    /// - Throws: ``SystemError`` (`access`, no subject) when it may not.
    package static func checkWritable(_ path: String) throws(SystemError) {
        try run("access") { Glibc.access(path, W_OK) }
    }

    /// The text of the symbolic link at `path`, never resolved further.
    ///
    /// The corresponding call is `readlink`.
    /// - Throws: ``SystemError`` naming the path.
    package static func linkText(ofPath path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try run("readlink", subject: path) {
            buffer.withUnsafeMutableBufferPointer { Glibc.readlink(path, $0.baseAddress!, Int(PATH_MAX)) }
        }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The process's working directory, or `nil` when it cannot be named (removed, too long).
    ///
    /// The corresponding call is `getcwd`.
    package static var currentDirectory: String? {
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return String(cString: directory)
    }

    /// Sets the process's file mode creation mask and returns the previous one.
    ///
    /// The corresponding call is `umask`, which cannot fail.
    @discardableResult
    package static func setFileCreationMask(_ mask: UInt32) -> UInt32 {
        UInt32(Glibc.umask(mode_t(mask)))
    }

    /// The real user id of this process (`getuid`, which cannot fail).
    package static var userID: UInt32 { getuid() }

    /// The effective user id of this process (`geteuid`, which cannot fail).
    package static var effectiveUserID: UInt32 { geteuid() }

    /// The id of this process (`getpid`, which cannot fail).
    package static var processID: Int32 { getpid() }
}

import Glibc

/// Calls that look a path up by name, for the few places that must (a socket's path, the
/// check of a path a client asks to register); everything that reads files opens them
/// relative to directory descriptors (``FileDescriptor``).
extension Syscall {
    /// What the file at `path` is, following a final symbolic link or not.
    ///
    /// The corresponding calls are `stat` and `lstat`.
    /// - Throws: ``SystemError`` (`ENOENT` when nothing is there).
    package static func status(ofPath path: String, followLinks: Bool) throws(SystemError) -> FileStatus {
        var info = stat()
        let name = followLinks ? "stat" : "lstat"
        try run(name, subject: path) { followLinks ? stat(path, &info) : lstat(path, &info) }
        return FileStatus(info)
    }

    /// Removes the name `path` (not a directory); a name already gone is not an error.
    ///
    /// The corresponding call is `unlink`.
    /// - Throws: ``SystemError`` for any error but `ENOENT`.
    package static func removeName(_ path: String) throws(SystemError) {
        guard Glibc.unlink(path) != 0 else { return }
        let code = Glibc.errno
        if code != ENOENT { throw SystemError("unlink", subject: path, errno: code) }
    }

    /// The absolute path of `path` with every symbolic link, `.` and `..` resolved.
    ///
    /// The corresponding call is `realpath(3)`.
    /// - Throws: ``SystemError`` (`ENOENT` or `ENOTDIR` when a component is missing).
    package static func resolvedPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else {
            throw SystemError("realpath", subject: path, errno: Glibc.errno)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

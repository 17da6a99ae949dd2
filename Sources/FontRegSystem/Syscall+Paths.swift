internal import CShim
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

    /// The access ACL of `path` itself (a final link is not followed), as the kernel stores it.
    ///
    /// The corresponding call is `lgetxattr(path, "system.posix_acl_access")`.
    /// - Returns: its bytes, or `nil` when it has none (or its file system keeps none).
    /// - Throws: ``SystemError`` for any other error.
    package static func accessACL(ofPath path: String) throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { cshim_access_acl(path, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer[0..<count]) }
            let code = Glibc.errno
            if code == ENODATA || code == ENOTSUP { return nil }
            guard code == ERANGE, buffer.count < 1 << 20 else {
                throw SystemError("lgetxattr", subject: path, errno: code)
            }
            buffer = [UInt8](repeating: 0, count: buffer.count * 4)
        }
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

import Glibc
import Synchronization

/// Writes a file so that a reader sees the old contents or the new, never a mix or a torn file.
///
/// The bytes go to a temporary file in the same directory, which is flushed (`fsync`) and
/// renamed over the target (`renameat`); then the directory is flushed so that the rename
/// survives a crash. Every call is made relative to a descriptor of the directory.
package enum AtomicFile {
    /// Numbers the temporary files of this process, so that two threads writing the same file
    /// (two registries sharing a cache directory) never open each other's temporary file.
    private static let sequence = Atomic<Int>(0)

    /// Replaces `name` in `directory` with `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the new contents.
    ///   - directory: the directory that holds the file.
    ///   - name: the file name (no slash).
    ///   - mode: the permissions of the new file (narrowed by the umask unless `exactMode`).
    ///   - exactMode: give the file exactly `mode` whatever the umask (a file every user must read,
    ///     written by a service that runs with `UMask=0077`).
    /// - Throws: ``SystemError`` from the first call that fails; the temporary file is removed.
    package static func write(
        _ bytes: [UInt8], directory: String, name: String, mode: UInt32 = 0o644, exactMode: Bool = false
    ) throws(SystemError) {
        // `withUnsafeBytes` rethrows untyped: the outcome is carried out as a `Result`.
        let outcome = bytes.withUnsafeBytes { all in
            Result { () throws(SystemError) in
                try write(parts: [all], directory: directory, name: name, mode: mode, exactMode: exactMode)
            }
        }
        try outcome.get()
    }

    /// Replaces `name` in `directory` with the bytes of `parts`, one after the other (a header
    /// patched in memory and the rest of a mapped file, written without copying them together).
    ///
    /// - Parameters: as ``write(_:directory:name:mode:exactMode:)``, `parts` for `bytes`.
    /// - Throws: ``SystemError`` from the first call that fails; the temporary file is removed.
    package static func write(
        parts: [UnsafeRawBufferPointer], directory: String, name: String, mode: UInt32 = 0o644,
        exactMode: Bool = false
    ) throws(SystemError) {
        guard !name.isEmpty, !name.contains("/") else { throw SystemError("write", subject: name, errno: EINVAL) }
        let dir = try FileDescriptor.open(directory, as: .directory)
        let serial = sequence.add(1, ordering: .relaxed).newValue
        let temporary = ".\(name).\(getpid()).\(serial).tmp"
        _ = unlinkat(dir.rawValue, temporary, 0)
        let fd = try Syscall.run("open", subject: temporary) {
            openat(dir.rawValue, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(mode))
        }
        do throws(SystemError) {
            if exactMode { try Syscall.run("fchmod", subject: temporary) { fchmod(fd, mode_t(mode)) } }
            for part in parts { try writeAll(part, to: fd, name: temporary) }
            try Syscall.run("fsync", subject: temporary) { fsync(fd) }
            Syscall.close(fd)
            try Syscall.run("rename", subject: name) { renameat(dir.rawValue, temporary, dir.rawValue, name) }
        } catch {
            Syscall.close(fd)
            _ = unlinkat(dir.rawValue, temporary, 0)
            throw error
        }
        try Syscall.run("fsync", subject: directory) { fsync(dir.rawValue) }
    }

    /// Writes every byte, however many calls it takes.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, name: String) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let count = try Syscall.run("write", subject: name) {
                Glibc.write(fd, base + written, bytes.count - written)
            }
            written += count
        }
    }
}

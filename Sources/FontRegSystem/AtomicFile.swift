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
            try writeAll(bytes, to: fd, name: temporary)
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
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, name: String) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let count = try Syscall.run("write", subject: name) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            }
            written += count
        }
    }
}

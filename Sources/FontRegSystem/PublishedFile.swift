import Glibc

/// A file this process published for other processes to map, kept open after it is written so
/// that a word in it can be changed in place once it has been replaced (readers that mapped it
/// see the change in their mapping, with no system call of their own).
package final class PublishedFile: Sendable {
    /// The descriptor, open for writing.
    private let descriptor: FileDescriptor
    /// What `fstat` said of the file when it was opened.
    package let status: FileStatus

    private init(_ descriptor: FileDescriptor, status: FileStatus) {
        self.descriptor = descriptor
        self.status = status
    }

    /// Opens `directory/name` for changes in place, if it can only be a file this process wrote.
    ///
    /// Anything else is refused, since a local user may have planted it (a socket directory
    /// writable by others): a symbolic link (`O_NOFOLLOW`), a FIFO or device (`O_NONBLOCK`, then
    /// `fstat`), a file of another user, a file with a second name (a hard link to a file of this
    /// user elsewhere, which a write in place would change), or one its group or others may write.
    /// - Parameters:
    ///   - directory: the directory that holds the file.
    ///   - name: the file name.
    /// - Returns: the open file, or `nil` when it is missing or any of the above.
    package static func open(directory: String, name: String) -> PublishedFile? {
        guard let dir = try? FileDescriptor.open(directory, as: .directory) else { return nil }
        let fd = openat(dir.rawValue, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let file = FileDescriptor(owning: fd)
        guard let status = try? file.status(), status.kind == .regular, status.owner == geteuid(),
            status.linkCount == 1, status.permissions & 0o022 == 0
        else { return nil }
        return PublishedFile(file, status: status)
    }

    /// Reads the little-endian word at `offset`.
    ///
    /// - Parameter offset: where, in bytes from the start.
    /// - Returns: the word, or `nil` when the file is shorter or cannot be read.
    package func word(at offset: Int) -> UInt64? {
        var little: UInt64 = 0
        let count = try? Syscall.run("pread") {
            withUnsafeMutableBytes(of: &little) { pread(descriptor.rawValue, $0.baseAddress, 8, off_t(offset)) }
        }
        guard count == 8 else { return nil }
        return UInt64(littleEndian: little)
    }

    /// Writes `value` (little-endian) at `offset`, inside the file's existing bytes.
    ///
    /// - Parameters:
    ///   - value: the word to write.
    ///   - offset: where, in bytes from the start.
    /// - Throws: ``SystemError`` from `pwrite`.
    package func write(_ value: UInt64, at offset: Int) throws(SystemError) {
        var little = value.littleEndian
        let written = try Syscall.run("pwrite") {
            withUnsafeBytes(of: &little) { pwrite(descriptor.rawValue, $0.baseAddress, 8, off_t(offset)) }
        }
        guard written == 8 else { throw SystemError("pwrite", errno: EIO) }
    }

    /// Removes `directory/name` (relative to the directory's descriptor); a missing file is not an error.
    ///
    /// - Parameters:
    ///   - directory: the directory that holds the file.
    ///   - name: the file name.
    package static func remove(directory: String, name: String) {
        guard let dir = try? FileDescriptor.open(directory, as: .directory) else { return }
        _ = unlinkat(dir.rawValue, name, 0)
    }
}

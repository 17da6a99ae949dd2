import Glibc

/// A file this process published for other processes to map, kept open after it is written so
/// that a word in it can be changed in place once it has been replaced (readers that mapped it
/// see the change in their mapping, with no system call of their own).
package final class PublishedFile: Sendable {
    /// The descriptor, open for writing.
    private let descriptor: FileDescriptor

    private init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    /// Opens `directory/name` for changes in place, if it is a regular file this process's user owns.
    ///
    /// - Parameters:
    ///   - directory: the directory that holds the file.
    ///   - name: the file name.
    /// - Returns: the open file, or `nil` when it is missing, a link, not regular or someone else's.
    package static func open(directory: String, name: String) -> PublishedFile? {
        guard let dir = try? FileDescriptor.open(directory, as: .directory) else { return nil }
        let fd = openat(dir.rawValue, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let file = FileDescriptor(owning: fd)
        guard let status = try? file.status(), status.kind == .regular, status.owner == geteuid() else { return nil }
        return PublishedFile(file)
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

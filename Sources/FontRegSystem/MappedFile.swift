import Glibc

/// A whole file mapped read-only into memory; unmapped when the last reference goes.
///
/// The mapping is private and read-only, so the bytes never change under a reader through
/// this process; a file replaced by `rename` keeps its old pages for as long as it is mapped.
/// The corresponding calls are `open(O_RDONLY)`, `fstat`, `mmap(PROT_READ, MAP_PRIVATE)` and `munmap`.
// Safe to share across threads: the mapping is read-only and immutable from creation to `deinit`.
package final class MappedFile: @unchecked Sendable {
    /// The mapped bytes (empty for an empty file, which is not mapped).
    package let bytes: UnsafeRawBufferPointer
    /// The path the file was opened at, for messages.
    package let path: String

    /// Maps the file at `path`.
    ///
    /// - Parameters:
    ///   - path: the file to map.
    ///   - maximumSize: a larger file is refused with `EFBIG` before it is mapped.
    /// - Throws: ``SystemError`` from `open`, `fstat` or `mmap`.
    package init(path: String, maximumSize: Int = 1 << 31) throws(SystemError) {
        self.path = path
        let fd = try Syscall.run("open", subject: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { Syscall.close(fd) }
        var info = stat()
        try Syscall.run("fstat", subject: path) { fstat(fd, &info) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw SystemError("map", subject: path, errno: EINVAL) }
        let size = Int(info.st_size)
        guard size <= maximumSize else { throw SystemError("map", subject: path, errno: EFBIG) }
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw SystemError("mmap", subject: path, errno: Syscall.lastErrno)
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { _ = munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}

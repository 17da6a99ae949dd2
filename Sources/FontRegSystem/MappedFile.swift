internal import CShim

/// A font file mapped read-only from its checked descriptor, unmapped when released.
///
/// Mapped rather than copied: the daemon's memory does not grow with the fonts it reads, and
/// the pages are the kernel's page cache. A file its owner truncates while it is mapped would
/// raise `SIGBUS` when a page past the new end is touched; the C shim absorbs that signal for
/// these mappings (the page reads as zeros) and ``isDamaged`` tells the reader to throw the
/// result away. The corresponding calls are `mmap(PROT_READ, MAP_PRIVATE)` and `munmap`.
package final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping is read-only and immutable for its lifetime.
    /// The first byte.
    package let base: UnsafeRawPointer
    /// The number of bytes mapped.
    package let count: Int

    init(descriptor: Int32, count: Int) throws(SystemError) {
        precondition(count > 0, "an empty file cannot be mapped")
        guard let address = cshim_map_guarded(descriptor, count) else {
            throw SystemError("mmap", errno: Syscall.lastErrno)
        }
        base = UnsafeRawPointer(address)
        self.count = count
    }

    deinit { cshim_unmap_guarded(UnsafeMutableRawPointer(mutating: base), count) }

    /// Whether part of the file vanished while it was mapped (it was truncated): what was read is not the file.
    package var isDamaged: Bool { cshim_map_was_damaged(UnsafeMutableRawPointer(mutating: base)) != 0 }
}

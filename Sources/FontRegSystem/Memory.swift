internal import CShim

/// The process's heap, as glibc's allocator keeps it.
package enum Memory {
    /// Gives free heap memory back to the kernel.
    ///
    /// glibc keeps freed memory in its arenas for reuse, so after a burst (many clients' unsent
    /// replies, then gone) the daemon's RSS stayed 0.7 GB above idle. Trimming returns it; it
    /// walks the arenas, so call it off the event loops and not more than every few seconds.
    /// The corresponding glibc call is `malloc_trim(0)`.
    /// - Returns: whether any memory was released.
    @discardableResult
    package static func trim() -> Bool {
        cshim_malloc_trim() == 1
    }
}

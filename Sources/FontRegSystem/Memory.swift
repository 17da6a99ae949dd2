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

    /// Caps glibc's malloc arenas at `count` (by default two, one per core of a small machine).
    ///
    /// glibc gives each thread that allocates under contention an arena of its own, up to eight
    /// per core, and each keeps its freed pages dirty; the daemon's loops and workers each
    /// grew one, a few MiB of private memory apiece that no face needs (issue 13). Call it
    /// before the threads start. The corresponding glibc call is `mallopt(M_ARENA_MAX, count)`.
    /// - Returns: whether glibc accepted it.
    @discardableResult
    package static func limitArenas(_ count: Int32 = 2) -> Bool {
        cshim_limit_arenas(count) == 1
    }
}

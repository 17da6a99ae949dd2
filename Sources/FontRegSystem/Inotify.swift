internal import CShim

/// An inotify instance that watches font directories; closed when released.
///
/// The corresponding calls are `inotify_init1` and `inotify_add_watch`.
package final class Inotify: Sendable {
    /// One event read from the instance.
    package struct Event: Sendable, Hashable {
        /// The watch the event belongs to.
        package var watch: Int32
        /// The raw `IN_*` mask.
        package var mask: UInt32
        /// The name of the entry inside the watched directory; empty for the directory itself.
        package var name: String

        /// Whether the watched directory itself went away, or events were lost (`IN_Q_OVERFLOW`).
        package var isDirectoryGone: Bool { cshim_inotify_is_directory_gone(mask) != 0 }
        /// Whether the kernel's queue overflowed (`IN_Q_OVERFLOW`): events were lost, rescan and re-watch everything.
        package var isOverflow: Bool { cshim_inotify_is_overflow(mask) != 0 }
        /// Whether a subdirectory was created or moved in.
        package var isNewDirectory: Bool { cshim_inotify_is_new_directory(mask) != 0 }
    }

    /// The inotify descriptor (non-blocking, close-on-exec).
    package let fd: Int32

    /// Creates the instance.
    package init() throws(SystemError) {
        fd = try Syscall.run("inotify_init1") { cshim_inotify_init() }
    }

    deinit { Syscall.close(fd) }

    /// Watches a directory for font files coming and going; a symbolic link is not followed.
    ///
    /// - Returns: the watch descriptor.
    package func watchDirectory(_ path: String) throws(SystemError) -> Int32 {
        try Syscall.run("inotify_add_watch", subject: path) { cshim_inotify_add_directory_nofollow(fd, path) }
    }

    /// Watches a directory already opened (confined) by its descriptor, so the watch is on exactly
    /// the directory that was checked and no path is resolved again.
    ///
    /// The watch is added through `/proc/self/fd/N`, the kernel's link to the open directory; without
    /// `/proc`, through `path` with `IN_DONT_FOLLOW | IN_ONLYDIR` (a link swapped in at the last
    /// component is then refused, though not one higher up).
    /// - Returns: the watch descriptor.
    package func watchDirectory(_ directory: FileDescriptor, path: String) throws(SystemError) -> Int32 {
        let procPath = "/proc/self/fd/\(directory.rawValue)"
        let wd = cshim_inotify_add_directory(fd, procPath)
        if wd >= 0 { return wd }
        return try Syscall.run("inotify_add_watch", subject: path) { cshim_inotify_add_directory_nofollow(fd, path) }
    }

    /// Reads the pending events into `buffer` (non-blocking).
    ///
    /// The corresponding call is `read`.
    /// - Returns: the events read, or `nil` when none is pending (`EAGAIN`).
    /// - Throws: ``SystemError`` when the read fails.
    package func read(into buffer: inout [UInt8]) throws(SystemError) -> [Event]? {
        guard let count = try Syscall.read(fd, into: &buffer), count > 0 else { return nil }
        return buffer.withUnsafeBytes { Inotify.events(in: $0, count: count) }
    }

    /// Splits a buffer read from the descriptor into events.
    package static func events(in buffer: UnsafeRawBufferPointer, count: Int) -> [Event] {
        var events: [Event] = []
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return events }
        var offset: Int32 = 0
        while Int(offset) < count {
            var wd: Int32 = 0
            var mask: UInt32 = 0
            var name: UnsafePointer<CChar>?
            let length = cshim_inotify_event_at(base, offset, &wd, &mask, &name)
            guard length > 0 else { break }
            events.append(Event(watch: wd, mask: mask, name: name.map { String(cString: $0) } ?? ""))
            offset += length
        }
        return events
    }
}

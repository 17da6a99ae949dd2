internal import CShim

/// An epoll instance and the event bits fontregd's loops use.
///
/// The descriptor is closed when the value is released. The corresponding calls are
/// `epoll_create1`, `epoll_ctl` and `epoll_wait`.
package final class Epoll: Sendable {
    /// One ready descriptor: the events that fired and the datum given at registration.
    package struct Event: Sendable {
        /// The `EPOLL*` bits that fired.
        package var events: UInt32
        /// The datum passed to ``Epoll/add(_:events:data:)``.
        package var data: UInt64

        /// An event; buffers for ``Epoll/wait(into:timeout:)`` are made of empty ones.
        package init(events: UInt32 = 0, data: UInt64 = 0) {
            self.events = events
            self.data = data
        }
    }

    /// `EPOLLIN`.
    package static let readable = cshim_EPOLLIN
    /// `EPOLLOUT`.
    package static let writable = cshim_EPOLLOUT
    /// `EPOLLERR`.
    package static let error = cshim_EPOLLERR
    /// `EPOLLHUP`.
    package static let hangUp = cshim_EPOLLHUP
    /// `EPOLLRDHUP`: the peer closed its writing side.
    package static let peerClosed = cshim_EPOLLRDHUP
    /// `EPOLLEXCLUSIVE`: wake one of the loops sharing a listener, not all.
    package static let exclusive = cshim_EPOLLEXCLUSIVE

    /// The epoll descriptor.
    package let fd: Int32

    /// Creates an epoll instance (`EPOLL_CLOEXEC`).
    package init() throws(SystemError) {
        fd = try Syscall.run("epoll_create1") { cshim_epoll_create() }
    }

    deinit { Syscall.close(fd) }

    /// Starts watching `descriptor` for `events`.
    package func add(_ descriptor: Int32, events: UInt32, data: UInt64) throws(SystemError) {
        try Syscall.run("epoll_ctl(ADD)") { cshim_epoll_add(fd, descriptor, events, data) }
    }

    /// Changes the events watched on `descriptor`.
    package func modify(_ descriptor: Int32, events: UInt32, data: UInt64) throws(SystemError) {
        try Syscall.run("epoll_ctl(MOD)") { cshim_epoll_modify(fd, descriptor, events, data) }
    }

    /// Stops watching `descriptor`; a descriptor that was not watched is not an error.
    package func remove(_ descriptor: Int32) {
        _ = cshim_epoll_remove(fd, descriptor)
    }

    /// Waits for events, at most `timeout` milliseconds (`-1` forever, `0` not at all).
    ///
    /// - Returns: the events, at most `buffer.count`; empty on a timeout or an interrupted wait.
    package func wait(into buffer: inout [Event], timeout milliseconds: Int32) throws(SystemError) -> Int {
        // The caller's buffer is filled in place: no allocation per wake-up (issue 13). `Event` has
        // the layout of `cshim_epoll_event` (checked by ``eventLayoutMatches``).
        precondition(Self.eventLayoutMatches, "Epoll.Event no longer has the layout of cshim_epoll_event")
        let count = buffer.withUnsafeMutableBytes { raw in
            raw.withMemoryRebound(to: cshim_epoll_event.self) {
                cshim_epoll_wait(fd, $0.baseAddress, Int32($0.count), milliseconds)
            }
        }
        if count < 0 {
            let code = Syscall.lastErrno
            if code == Syscall.interrupted { return 0 }
            throw SystemError("epoll_wait", errno: code)
        }
        return Int(count)
    }

    /// Whether ``Event`` is laid out as `cshim_epoll_event` (a 32-bit mask, then a 64-bit datum at offset 8).
    static let eventLayoutMatches =
        MemoryLayout<Event>.size == MemoryLayout<cshim_epoll_event>.size
        && MemoryLayout<Event>.stride == MemoryLayout<cshim_epoll_event>.stride
        && MemoryLayout<Event>.offset(of: \.data) == MemoryLayout<cshim_epoll_event>.offset(of: \.data)
        && MemoryLayout<Event>.offset(of: \.events) == 0
}

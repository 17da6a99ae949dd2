internal import CShim
import Glibc

/// What fontregd says to and takes from its service manager, in systemd's protocols as
/// sd_notify(3), sd_watchdog_enabled(3) and sd_listen_fds(3) document them: a datagram to
/// `NOTIFY_SOCKET`, the watchdog's `WATCHDOG_USEC` and `WATCHDOG_PID`, and the sockets passed
/// from descriptor 3 on with `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES`.
///
/// Written here rather than called in libsystemd: linking libsystemd loaded seven libraries into
/// every `fontregd` start (libsystemd, libgcrypt, libgpg-error, liblzma, libzstd, liblz4,
/// libcap), 66 page faults and 0.55 ms of a 3.4 ms start (issue 29 item 3), and put their code
/// in a root daemon's address space for three small protocols (OpenSSH made the same choice for
/// `sd_notify` in 2024).
package enum ServiceManager {
    /// The first descriptor a service manager passes (`SD_LISTEN_FDS_START`).
    package static let firstPassedDescriptor: Int32 = 3
    /// The most passed descriptors taken; a larger `LISTEN_FDS` is refused as malformed.
    package static let maximumPassedDescriptors: Int32 = 1024

    /// Sends notify lines (`READY=1`, `STATUS=…`) to the address in `NOTIFY_SOCKET`; does
    /// nothing without it.
    ///
    /// - Returns: whether the datagram was sent.
    @discardableResult
    package static func notify(_ lines: String) -> Bool {
        guard let address = variable("NOTIFY_SOCKET"), !address.isEmpty else { return false }
        return send(lines, to: address)
    }

    /// Sends notify lines to a notify address: a socket path, or after `@` an abstract name
    /// (the two kinds sd_notify(3) reads from `NOTIFY_SOCKET` on Debian 12's systemd 252).
    ///
    /// - Returns: whether the datagram was sent (not for an address of another kind).
    @discardableResult
    package static func send(_ lines: String, to address: String) -> Bool {
        let kind = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard let fd = try? Syscall.run("socket", { socket(AF_UNIX, kind, 0) }) else { return false }
        defer { Syscall.close(fd) }
        let message = Array(lines.utf8)
        let sent = try? Syscall.run("sendto", subject: address) {
            message.withUnsafeBytes { cshim_sendto_notify(fd, address, $0.baseAddress, $0.count) }
        }
        return sent != nil
    }

    /// The watchdog interval the service manager asked for, in microseconds: `WATCHDOG_USEC`,
    /// when `WATCHDOG_PID` is unset or this process's; `nil` when there is none.
    package static var watchdogInterval: UInt64? {
        watchdogInterval(usec: variable("WATCHDOG_USEC"), pid: variable("WATCHDOG_PID"), processID: getpid())
    }

    /// The watchdog interval that `WATCHDOG_USEC` and `WATCHDOG_PID` give process `processID`.
    package static func watchdogInterval(usec: String?, pid: String?, processID: Int32) -> UInt64? {
        guard let usec, let interval = UInt64(usec), interval > 0 else { return nil }
        if let pid {
            guard let owner = Int32(pid), owner == processID else { return nil }
        }
        return interval
    }

    /// The descriptors passed by socket activation, with their names (`LISTEN_FDNAMES`, each
    /// "unknown" when unset), when `LISTEN_PID` is this process; empty when none were passed
    /// or the variables do not agree. The three variables are removed from the environment, so
    /// that no child takes the descriptors for its own.
    package static func takePassedDescriptors() -> [(fd: Int32, name: String)] {
        defer {
            for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        }
        return passedDescriptors(
            pid: variable("LISTEN_PID"), count: variable("LISTEN_FDS"), names: variable("LISTEN_FDNAMES"),
            processID: getpid())
    }

    /// The descriptors that `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` pass process
    /// `processID`: none unless the first names it, the second is a count from 1 to
    /// ``maximumPassedDescriptors`` and the third, when set, has as many colon-separated names.
    package static func passedDescriptors(pid: String?, count: String?, names: String?, processID: Int32)
        -> [(fd: Int32, name: String)]
    {
        guard let pid, let owner = Int32(pid), owner == processID, let count, let number = Int32(count),
            number > 0, number <= maximumPassedDescriptors
        else { return [] }
        var given = [String](repeating: "unknown", count: Int(number))
        if let names {
            let listed = names.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard listed.count == Int(number) else { return [] }
            given = listed
        }
        return (0..<number).map { (firstPassedDescriptor + $0, given[Int($0)]) }
    }

    /// Whether `fd` is a listening Unix stream socket (what socket activation must pass fontregd).
    ///
    /// - Throws: ``SystemError`` when the descriptor cannot be examined (not open).
    package static func isListeningUnixStreamSocket(_ fd: Int32) throws(SystemError) -> Bool {
        try Syscall.run("examine passed socket") { cshim_is_listening_unix_stream(fd) } == 1
    }

    /// An environment variable's value, read with `getenv` (a whole environment dictionary is
    /// not needed for four names).
    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

import FontRegSystem

/// Tells systemd how the daemon is doing (the `sd_notify` protocol, ``ServiceManager``): ready,
/// reloading, stopping, status, watchdog.
///
/// Without `NOTIFY_SOCKET` in the environment every call does nothing.
struct SystemdNotifier: Sendable {
    package init() {}

    /// Sends raw notify lines.
    package func send(_ lines: String) {
        ServiceManager.notify(lines)
    }

    /// `READY=1` with a status line.
    package func ready(status: String) {
        send("READY=1\nSTATUS=\(status)")
    }

    /// `RELOADING=1` with `MONOTONIC_USEC`, as systemd wants it before a reload.
    package func reloading() {
        send(
            "RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.microseconds)\nSTATUS=Reloading configuration and rescanning")
    }

    /// `WATCHDOG=1`: the daemon is alive.
    func petWatchdog() {
        send("WATCHDOG=1")
    }

    /// `STOPPING=1`.
    package func stopping() {
        send("STOPPING=1\nSTATUS=Finishing in-flight calls and stopping")
    }

    /// A `STATUS=` line for `systemctl status`.
    package func status(_ text: String) {
        send("STATUS=\(text)")
    }

    /// The watchdog interval systemd asked for (`WATCHDOG_USEC`), in microseconds, if any.
    var watchdogInterval: UInt64? { ServiceManager.watchdogInterval }
}

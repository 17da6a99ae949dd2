internal import CShim

/// Monotonic time, as systemd and the event loops count it.
package enum MonotonicClock {
    /// `CLOCK_MONOTONIC` in microseconds (systemd's `MONOTONIC_USEC`).
    package static var microseconds: UInt64 { cshim_monotonic_usec() }
}

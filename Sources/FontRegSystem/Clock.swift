internal import CShim
import Glibc

/// Monotonic time, as systemd and the event loops count it.
package enum MonotonicClock {
    /// `CLOCK_MONOTONIC` in microseconds (systemd's `MONOTONIC_USEC`).
    package static var microseconds: UInt64 { cshim_monotonic_usec() }
}

/// The time of day, for names and messages a person reads (never for measuring durations).
package enum WallClock {
    /// The current UTC time as `YYYYMMDDTHHMMSSZ` (fixed width, so such names sort by time).
    ///
    /// The corresponding calls are `time` and `gmtime_r`.
    package static var compactUTCStamp: String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}

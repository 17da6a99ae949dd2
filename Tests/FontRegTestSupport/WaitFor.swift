import Foundation

/// A condition a test waited for that did not come true in time.
struct WaitTimedOut: Error, CustomStringConvertible {
    /// What the test waited for.
    package let what: String
    /// How long it waited, in seconds.
    package let seconds: Double

    package var description: String { "waited \(seconds) s for \(what); it did not happen" }
}

/// Checks `condition` until it holds, sleeping `interval` seconds between checks.
///
/// The one polling loop of the tests: the wait is bounded by `timeout` (generous, for a busy
/// machine: a test passes as soon as the condition holds, so a long bound costs nothing), and
/// the failure says what was awaited.
///
/// - Throws: ``WaitTimedOut`` when `timeout` seconds pass first; what `condition` throws.
package func waitFor(
    _ what: String, timeout: Double = 30, interval: Double = 0.01, _ condition: () throws -> Bool
) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        if Date() >= deadline { throw WaitTimedOut(what: what, seconds: timeout) }
        usleep(UInt32(max(0.001, interval) * 1_000_000))
    }
}

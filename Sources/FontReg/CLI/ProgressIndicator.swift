import Foundation
import Synchronization

/// A spinner with the elapsed time on standard error, while a long call runs; only on a terminal.
///
/// The daemon's `Register` and `Rescan` answer once, at the end, so progress is the time
/// spent, not a count of files. Nothing is shown for calls shorter than half a second.
public struct ProgressIndicator: Sendable {
    private final class Flag: Sendable {
        let stop = Atomic<Bool>(false)
        let erased = Atomic<Bool>(false)
    }

    /// Where the spinner is drawn.
    public let console: Console
    /// Whether to draw at all; defaults to "standard error is a terminal".
    public let enabled: Bool

    public init(console: Console, enabled: Bool? = nil) {
        self.console = console
        self.enabled = enabled ?? console.errorIsTerminal
    }

    /// Runs `body`, drawing `message` with a spinner until it returns.
    public func run<T, E: Error>(_ message: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard enabled else { return try body() }
        let flag = Flag()
        let console = self.console
        let thread = Thread {
            let frames = ["|", "/", "-", "\\"]
            let start = Date()
            var frame = 0
            var drawn = false
            for _ in 0..<10 where !flag.stop.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.05) }
            while !flag.stop.load(ordering: .acquiring) {
                let elapsed = String(format: "%.1f", Date().timeIntervalSince(start))
                console.errorRaw("\r\(frames[frame % frames.count]) \(message)… \(elapsed) s")
                drawn = true
                frame += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
            if drawn { console.errorRaw("\r\u{1B}[K") }
            flag.erased.store(true, ordering: .releasing)
        }
        thread.start()
        defer {
            flag.stop.store(true, ordering: .releasing)
            // Wait until the spinner has erased its line, so output does not interleave with it.
            while !flag.erased.load(ordering: .acquiring) { usleep(5_000) }
        }
        return try body()
    }
}

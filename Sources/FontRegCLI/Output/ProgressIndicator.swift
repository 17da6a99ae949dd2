import Foundation
import Synchronization

/// A spinner with the elapsed time on standard error, while a long call runs; only on a terminal.
///
/// The daemon's `Register` and `Rescan` answer once, at the end, so progress is the time
/// spent, not a count of files. Nothing is shown for calls shorter than half a second.
package struct ProgressIndicator: Sendable {
    private final class Flag: Sendable {
        let stop = Atomic<Bool>(false)
        let erased = Atomic<Bool>(false)
    }

    /// Draws text on standard error (or wherever a test wants it).
    package let write: @Sendable (String) -> Void
    /// Whether to draw at all; defaults to "standard error is a terminal".
    package let enabled: Bool

    /// A spinner on the console's standard error, drawn only when it is a terminal.
    package init(console: Console) {
        self.init(enabled: console.errorIsTerminal, write: { console.errorRaw($0) })
    }

    /// A spinner that draws with `write` when `enabled`.
    package init(enabled: Bool, write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    /// Runs `body`, drawing `message` with a spinner until it returns.
    package func run<T, E: Error>(_ message: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard enabled else { return try body() }
        let flag = Flag()
        let write = self.write
        let thread = Thread {
            let frames = ["|", "/", "-", "\\"]
            let start = Date()
            var frame = 0
            var drawn = false
            for _ in 0..<10 where !flag.stop.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.05) }
            while !flag.stop.load(ordering: .acquiring) {
                let elapsed = String(format: "%.1f", Date().timeIntervalSince(start))
                write("\r\(frames[frame % frames.count]) \(message)… \(elapsed) s")
                drawn = true
                frame += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
            if drawn { write("\r\u{1B}[K") }
            flag.erased.store(true, ordering: .releasing)
        }
        thread.start()
        defer {
            flag.stop.store(true, ordering: .releasing)
            // Wait until the spinner has erased its line, so output does not interleave with it.
            while !flag.erased.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
        }
        return try body()
    }
}

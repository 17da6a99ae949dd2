import Foundation
import Testing

/// Compares long command output with a file under `Tests/Snapshots`.
///
/// Re-record deliberately with `RECORD_SNAPSHOTS=1 swift test --filter CLI`, then read the
/// diff before committing. Machine-specific paths are replaced before comparing: the
/// package root by `$ROOT`, and any temporary directory given by `$TMP`.
package enum Snapshot {
    package static let directory = BuildProducts.packageRoot.appendingPathComponent("Tests/Snapshots")

    /// Whether this run records snapshots instead of checking them.
    package static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// Replaces machine-specific paths.
    static func normalize(_ text: String, temporary: String? = nil) -> String {
        var result = text.replacingOccurrences(of: BuildProducts.packageRoot.path, with: "$ROOT")
        if let temporary { result = result.replacingOccurrences(of: temporary, with: "$TMP") }
        return result
    }

    /// Expects `text` to equal the snapshot `name` (a file name such as `list-families.txt`).
    package static func expect(
        _ text: String, matches name: String, temporary: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = directory.appendingPathComponent(name)
        let actual = normalize(text, temporary: temporary)
        if recording {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "no snapshot \(name); record it with RECORD_SNAPSHOTS=1 swift test", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let diff = firstDifference(expected, actual)
            Issue.record(
                "output differs from snapshot \(name) at line \(diff.line):\n  expected: \(diff.expected)\n  actual:   \(diff.actual)\n(re-record with RECORD_SNAPSHOTS=1 if the change is intended)",
                sourceLocation: sourceLocation)
        }
    }

    /// Expects a committed file (a completion script, the man page) to equal generated text.
    package static func expectFile(
        _ path: String, equals generated: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = BuildProducts.packageRoot.appendingPathComponent(path)
        if recording {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(generated.utf8).write(to: url)
            return
        }
        let committed = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        if committed != generated {
            let diff = firstDifference(committed, generated)
            Issue.record(
                "\(path) is out of date at line \(diff.line) (regenerate with RECORD_SNAPSHOTS=1 swift test --filter CLI):\n  committed: \(diff.expected)\n  generated: \(diff.actual)",
                sourceLocation: sourceLocation)
        }
    }

    static func firstDifference(_ a: String, _ b: String) -> (line: Int, expected: String, actual: String) {
        let x = a.components(separatedBy: "\n"), y = b.components(separatedBy: "\n")
        for i in 0..<max(x.count, y.count) where (i < x.count ? x[i] : nil) != (i < y.count ? y[i] : nil) {
            return (i + 1, i < x.count ? x[i] : "<end>", i < y.count ? y[i] : "<end>")
        }
        return (0, "", "")
    }
}

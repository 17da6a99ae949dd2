import Foundation

/// Runs one of the scripts that drive headless Chromium (`scripts/chromium-*.py`), as the
/// Chromium test suites do: from the repository, with the built `fontresolve` and Chromium's path
/// in the environment, its output and errors in one temporary file (removed after).
package enum ChromiumScript {
    /// Debian's Chromium, which the suites need.
    package static let chromium = "/usr/bin/chromium"

    /// Whether Chromium is installed.
    package static var available: Bool { FileManager.default.isExecutableFile(atPath: chromium) }

    /// Runs `script` (a path from the repository root) with `arguments`, by `python` (the system's
    /// by default; ``PythonTools/python`` for a script that needs fontTools).
    ///
    /// - Returns: the script's exit status and everything it printed.
    package static func run(_ script: String, _ arguments: [String] = [], python: String = "/usr/bin/python3") throws
        -> (status: Int32, printed: String)
    {
        let output = NSTemporaryDirectory() + "chromium-script-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        process.currentDirectoryURL = BuildProducts.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["FONTRESOLVE"] = BuildProducts.executable("fontresolve")
        environment["CHROMIUM"] = chromium
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }
}

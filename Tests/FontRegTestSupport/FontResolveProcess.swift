import Foundation
import Testing

/// Runs the built `fontresolve` binary, as the tests of the client do.
///
/// The binary is found next to the test bundle (`.build/debug/fontresolve`, see
/// ``BuildProducts``); `swift build --build-tests` or `swift test` builds it. Commands run
/// in the package root, so paths under it print as `Tests/Fixtures/...` on every machine.
package enum FontResolveProcess {
    /// What one run printed and how it ended.
    package struct Output {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// The fixture fonts, relative to the package root (the working directory of every run).
    package static let fixtures = "Tests/Fixtures/fonts"

    /// Runs `fontresolve` with these arguments.
    ///
    /// - Parameters:
    ///   - environment: added to a small clean environment (no `FONTREG_SOCKET`, no `XDG_RUNTIME_DIR`).
    ///   - asNobody: run as uid/gid 65534 through `setpriv`, to meet the daemon's and the socket's permissions.
    /// `ASAN_OPTIONS` and friends, kept in the clean environment so that a sanitizer run
    /// (`swift test --sanitize=…`, scripts/reliability.sh) applies its settings to the client too.
    static var sanitizerOptions: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
        }
    }

    package static func run(_ arguments: [String], environment: [String: String] = [:], asNobody: Bool = false) throws
        -> Output
    {
        let binary = BuildProducts.executable("fontresolve")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HarnessError(
                "\(binary) is missing; build it with `swift build --build-tests` before running the tests")
        }
        let process = Process()
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        var env = ["PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TMPDIR": "/tmp"].merging(
            sanitizerOptions
        ) { $1 }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL = BuildProducts.packageRoot
        let out = Pipe()
        // Standard error goes to a file, so that a full pipe cannot block the child while we read standard output.
        let errPath = NSTemporaryDirectory() + "fontresolve-stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `fontresolve` on a pseudo-terminal (through `script`), so that it believes it talks to a person.
    ///
    /// - Returns: what the terminal showed, standard output and error together.
    package static func runOnTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let binary = BuildProducts.executable("fontresolve")
        let command = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        var env = ["PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TERM": "xterm"].merging(
            sanitizerOptions
        ) { $1 }
        for (key, value) in environment { env[key] = value }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", command, "/dev/null"]
        process.environment = env
        process.currentDirectoryURL = BuildProducts.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }

    /// Parses standard output as JSON.
    package static func json(_ output: Output) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(output.stdout.utf8), options: [.fragmentsAllowed])
    }
}

import FontRegCore
import FontRegJSON
import FontRegSystem
import Foundation
import Glibc
import Testing
import Varlink

/// Where the built products are: next to the test bundle, in SwiftPM's bin directory.
package enum BuildProducts {
    /// The build directory holding the test bundle (`.build/debug`).
    package static let directory: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent()
    }()

    /// The path of a built executable, e.g. `fontregd`.
    package static func executable(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// The package's root directory.
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fixture fonts of the test target.
    package static let fixtureFonts = packageRoot.appendingPathComponent("Tests/Fixtures/fonts").path
    /// The real Inter and Lato at the top of the repository.
    package static let realFonts = packageRoot.appendingPathComponent("fonts").path
}

/// A temporary directory, world-readable so that a client running as `nobody` can reach a socket in it.
package final class TemporaryDirectory {
    package let path: String

    package init() {
        var template = Array("/tmp/fontregd-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(cString: created!)
        chmod(path, 0o755)
    }

    package func file(_ name: String) -> String { path + "/" + name }

    /// Makes a font directory `name` in it holding copies of `fonts` (paths), the copies named
    /// `names` when given (one per font), else as the originals.
    ///
    /// - Returns: the directory's path.
    package func fontDirectory(_ name: String = "fonts", copying fonts: [String] = [], as names: [String]? = nil)
        throws -> String
    {
        let directory = file(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (offset, font) in fonts.enumerated() {
            let copy = names?[offset] ?? URL(fileURLWithPath: font).lastPathComponent
            try FileManager.default.copyItem(atPath: font, toPath: directory + "/" + copy)
        }
        return directory
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The real `fontregd` binary, started on a temporary socket for one test.
package final class DaemonProcess {
    package let directory: TemporaryDirectory
    package let process = Process()
    package let socketPath: String
    package let logPath: String

    /// Starts `fontregd` with the fixture fonts, a private state directory and `extraArguments`.
    ///
    /// - Parameters:
    ///   - fonts: font directories (the fixtures by default).
    ///   - waitUntilServing: wait until the socket accepts connections.
    package init(
        directory: TemporaryDirectory = TemporaryDirectory(), fonts: [String] = [BuildProducts.fixtureFonts],
        extraArguments: [String] = [], environment: [String: String] = [:], socketPath: String? = nil,
        launcher: [String] = [], waitUntilServing: Bool = true
    ) throws {
        self.directory = directory
        self.socketPath = socketPath ?? directory.file("fontregd.sock")
        self.logPath = directory.file("fontregd-\(UUID().uuidString.prefix(8)).log")
        let binary = BuildProducts.executable("fontregd")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HarnessError("\(binary) is missing; build it with `swift build` before `swift test`")
        }
        var arguments = [
            "--socket", self.socketPath, "--no-system-fonts", "--state-dir", directory.file("state"),
            "--cache-dir", directory.file("cache"), "--config", directory.file("fontregd.conf"),
        ]
        for font in fonts { arguments += ["--fonts", font] }
        arguments += extraArguments
        if !FileManager.default.fileExists(atPath: directory.file("fontregd.conf")) {
            _ = FileManager.default.createFile(atPath: directory.file("fontregd.conf"), contents: Data("# test\n".utf8))
        }
        if launcher.isEmpty {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: launcher[0])
            process.arguments = Array(launcher.dropFirst()) + [binary] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "LISTEN_FDS")
        env.removeValue(forKey: "LISTEN_PID")
        env.removeValue(forKey: "RUNTIME_DIRECTORY")  // it would turn the fontconfig bridge on (issue 28)
        for (key, value) in environment { env[key] = value }
        process.environment = env
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle(forWritingAtPath: logPath)
        try process.run()
        Self.recordStart()
        if waitUntilServing { try waitUntilAccepting() }
    }

    /// Appends the running test's id to the file `FONTREG_COUNT_DAEMON_STARTS` names, if set: how
    /// many tests start a daemon is then `sort -u` of that file (issue 23 counts them).
    private static func recordStart() {
        guard let path = ProcessInfo.processInfo.environment["FONTREG_COUNT_DAEMON_STARTS"] else { return }
        let line = Array("\(Test.current.map { "\($0.id)" } ?? "(no test)")\n".utf8)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Waits until the socket accepts a connection (at most `timeout` seconds).
    package func waitUntilAccepting(timeout: Double = 30) throws {
        do {
            try waitFor("fontregd to accept connections on \(socketPath)", timeout: timeout, interval: 0.02) {
                if let client = try? VarlinkClient(socketPath: socketPath, timeout: 5) {
                    client.close()
                    return true
                }
                if !process.isRunning {
                    throw HarnessError("fontregd exited with \(process.terminationStatus) before serving:\n\(log)")
                }
                return false
            }
        } catch let timedOut as WaitTimedOut {
            throw HarnessError("\(timedOut):\n\(log)")
        }
        // Users' persistent registrations are restored after READY (issue 24): tests see them restored.
        do {
            try waitFor("fontregd to restore users' persistent registrations", timeout: timeout, interval: 0.02) {
                log.contains("users' persistent registrations in")
            }
        } catch let timedOut as WaitTimedOut {
            throw HarnessError("\(timedOut):\n\(log)")
        }
    }

    /// A new client connected to the daemon.
    package func client(timeout: Double = 10) throws -> VarlinkClient {
        try VarlinkClient(socketPath: socketPath, timeout: timeout)
    }

    /// What the daemon wrote to standard error so far.
    package var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Sends a signal.
    package func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to exit (at most `timeout` seconds) and returns its exit status.
    @discardableResult
    package func waitForExit(timeout: Double = 20) throws -> Int32 {
        do {
            try waitFor("fontregd to exit", timeout: timeout, interval: 0.01) { !process.isRunning }
        } catch let timedOut as WaitTimedOut {
            kill(process.processIdentifier, SIGKILL)
            throw HarnessError("\(timedOut):\n\(log)")
        }
        return process.terminationStatus
    }

    /// Stops the daemon with SIGTERM and returns its exit status.
    @discardableResult
    package func stop() throws -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        return try waitForExit()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// A failure of the test harness itself, with what to look at.
package struct HarnessError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Runs a command and returns its exit status, standard output and standard error.
@discardableResult
package func runCommand(_ arguments: [String], environment: [String: String]? = nil) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
    )
}

/// The Varlink error a call fails with, or `nil` when it succeeds.
package func remoteError(_ body: () throws -> Void) -> VarlinkError? {
    do {
        try body()
        return nil
    } catch let VarlinkClientError.remote(error) {
        return error
    } catch {
        Issue.record("expected a Varlink error reply, got \(error)")
        return nil
    }
}

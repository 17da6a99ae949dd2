import FontRegTestSupport
import Foundation
import Testing

/// An answer that cannot be written is not a success; a reader that went away is not an error.
@Suite struct OutputFailureTests {
    /// Runs `script` in bash with the built `fontresolve` as `$0`, in the package root.
    func shell(_ script: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, BuildProducts.executable("fontresolve")]
        process.currentDirectoryURL = BuildProducts.packageRoot
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aFullDiskEndsWithStatus74AndSaysWhy() throws {
        let run = try shell("\"$0\" list --fonts \(FontResolveProcess.fixtures) > /dev/full")
        #expect(run.status == 74)
        #expect(run.stderr.contains("cannot write standard output"))
        #expect(run.stderr.contains("No space left on device"))
    }

    @Test func aReaderThatGoesAwayIsNotAnError() throws {
        // SIGPIPE ignored, as a shell's `trap '' PIPE` or a supervising program leaves it: the
        // write fails with EPIPE instead of ending the process.
        // The reader closes its end at once; the writer starts 0.3 s later, so every write meets
        // a pipe with no reader.
        let run = try shell(
            "trap '' PIPE; { sleep 0.3; \"$0\" list --fonts \(FontResolveProcess.fixtures) --json; }"
                + " | { exec 0<&-; sleep 1; }; exit ${PIPESTATUS[0]}")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
    }
}

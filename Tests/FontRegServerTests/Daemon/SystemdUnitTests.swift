import FontRegTestSupport
import Foundation
import Testing

/// The unit files as `systemd-analyze` judges them.
@Suite("systemd units")
struct SystemdUnitTests {
    @Test func serviceExposureIsAtMostTwo() throws {
        let unit = BuildProducts.packageRoot.appendingPathComponent("systemd/fontregd.service").path
        let result = try runCommand(["/usr/bin/systemd-analyze", "security", "--offline=yes", "--threshold=20", unit])
        let line = result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        #expect(result.status == 0, "\(line)")
        let score = line.split(separator: " ").compactMap { Double($0) }.first
        #expect(score != nil && score! <= 2.0, "\(line)")
    }

    /// `systemd-analyze verify` needs `ExecStart=` to exist, so the units are checked as
    /// `scripts/install.sh` installs them: into a temporary prefix, with the built binary.
    @Test func installedUnitsVerifyWithNothingOnStandardError() throws {
        let prefix = TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["PREFIX"] = prefix.path + "/usr"
        environment["BUILD_DIR"] = BuildProducts.directory.path
        let install = try runCommand(
            ["/bin/sh", BuildProducts.packageRoot.appendingPathComponent("scripts/install.sh").path],
            environment: environment)
        #expect(install.status == 0, "\(install.stderr)")
        let units = prefix.path + "/usr/lib/systemd/system"
        let service = try String(contentsOfFile: units + "/fontregd.service", encoding: .utf8)
        #expect(service.contains("ExecStart=\(prefix.path)/usr/bin/fontregd\n"))
        let verify = try runCommand([
            "/usr/bin/systemd-analyze", "verify", units + "/fontregd.service", units + "/fontregd.socket",
        ])
        #expect(verify.status == 0)
        #expect(verify.stderr.isEmpty, "\(verify.stderr)")
    }

    @Test func serviceIsTypeNotifyAndSocketNamesItsDescriptorVarlink() throws {
        let root = BuildProducts.packageRoot.appendingPathComponent("systemd")
        let service = try String(contentsOf: root.appendingPathComponent("fontregd.service"), encoding: .utf8)
        let socket = try String(contentsOf: root.appendingPathComponent("fontregd.socket"), encoding: .utf8)
        #expect(service.contains("Type=notify\n"))
        #expect(service.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        #expect(socket.contains("FileDescriptorName=varlink\n"))
        #expect(socket.contains("ListenStream=/run/fontreg/fontregd.sock\n"))
    }
}

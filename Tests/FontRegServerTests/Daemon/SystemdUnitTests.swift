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

    /// The workers set limits, load seccomp and restrict themselves with Landlock under the
    /// unit's own filter: each `SystemCallFilter=` line taken in order (a list adds its calls, a
    /// `~` list takes them away), groups expanded by this machine's `systemd-analyze`.
    @Test func theUnitsSystemCallFilterLetsTheWorkersConfineThemselves() throws {
        let unit = BuildProducts.packageRoot.appendingPathComponent("systemd/fontregd.service").path
        let lines = try String(contentsOfFile: unit, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("SystemCallFilter=") }.map { $0.dropFirst("SystemCallFilter=".count) }
        #expect(!lines.isEmpty)
        func expand(_ name: Substring) throws -> Set<String> {
            guard name.hasPrefix("@") else { return [String(name)] }
            let listed = try runCommand(["/usr/bin/systemd-analyze", "syscall-filter", String(name)])
            var calls = Set<String>()
            for entry in listed.stdout.split(separator: "\n").dropFirst() {
                let entry = entry.trimmingCharacters(in: .whitespaces)
                guard !entry.isEmpty, !entry.hasPrefix("#") else { continue }
                calls.formUnion(entry.hasPrefix("@") ? try expand(Substring(entry)) : [entry])
            }
            return calls
        }
        var allowed = Set<String>()
        for line in lines {
            let removing = line.hasPrefix("~")
            for name in line.dropFirst(removing ? 1 : 0).split(separator: " ") {
                let calls = try expand(name)
                if removing { allowed.subtract(calls) } else { allowed.formUnion(calls) }
            }
        }
        let needed = [
            "seccomp", "prctl", "setrlimit", "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
        ]
        #expect(needed.filter { !allowed.contains($0) } == [])
    }
}

import FontRegTestSupport
import Foundation
import Testing

/// A file the scanning user may not read is reported as such and the rest is served.
///
/// Tests run as root here, and root reads everything: the scan runs in the built
/// `fontresolve` as `nobody` (setpriv, from util-linux) so the permission check is real.
@Suite struct UnreadableFileTests {
    @Test func aFileTheUserCannotReadIsReportedAndTheOthersAreServed() throws {
        let directory = TemporaryDirectory()
        let fonts = try directory.fontDirectory(
            copying: ["NotoFixture-Regular.ttf", "NotoFixture-Bold.ttf"].map { Fixtures.families + "/" + $0 })
        chmod(fonts, 0o755)
        chmod(fonts + "/NotoFixture-Regular.ttf", 0o644)
        chmod(fonts + "/NotoFixture-Bold.ttf", 0o000)
        var command = [BuildProducts.executable("fontresolve"), "status", "--fonts", fonts, "--json"]
        if getuid() == 0 {
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        let result = try runCommand(command, environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(status["faces"] as? Int == 1)
        // `nobody` cannot write a cache in root's temporary HOME either: that is reported too, on its own path.
        let problems = try #require(status["problems"] as? [[String: String]]).filter {
            $0["path"]?.hasPrefix(fonts) == true
        }
        #expect(problems.count == 1)
        #expect(problems.first?["path"]?.hasSuffix("NotoFixture-Bold.ttf") == true)
        #expect(problems.first?["reason"]?.contains("permission denied") == true)
    }
}

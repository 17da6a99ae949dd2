import Foundation
import Glibc
import Testing

@testable import FontRegSystem

/// The environment read from `environ` (issue 29: `fontresolve` starts without `ProcessInfo`).
@Suite struct ProcessEnvironmentTests {
    @Test func everyVariableReadsAsGetenvAndProcessInfoReadIt() throws {
        setenv("FONTREG_TEST_ENVIRONMENT", "a=b=c", 1)
        defer { unsetenv("FONTREG_TEST_ENVIRONMENT") }
        let variables = ProcessEnvironment.current()
        #expect(variables["FONTREG_TEST_ENVIRONMENT"] == "a=b=c")
        let path = try #require(getenv("PATH"))
        #expect(variables["PATH"] == String(cString: path))
        #expect(variables == ProcessInfo.processInfo.environment)
    }
}

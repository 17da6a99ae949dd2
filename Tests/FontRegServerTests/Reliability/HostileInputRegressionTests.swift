import Testing

@testable import FontRegCore

/// Inputs the fuzzers found to crash the daemon, kept so that they never do again.
///
/// Each test names the input and what must happen instead of the crash. The calls that once
/// crashed the daemon are answered in memory now (`RegistryBadInputTests` in FontRegServiceTests).
@Suite("inputs that once crashed fontregd", .serialized)
struct HostileInputRegressionTests {
    static let resolve = "io.fontreg.Registry.Resolve"

    /// Found by Tests/reliability/protocol_fuzz.py: `Int(Double)` trapped on these.
    @Test(arguments: ["inf", "-inf", "Infinity", "1e300", "1e+23", "-1e19", "9223372036854775808.0", "nan"])
    func weightTextsBeyondIntAreRejectedNotTrappedOn(text: String) {
        #expect(FontWeight(parsing: text) == nil)
    }
}

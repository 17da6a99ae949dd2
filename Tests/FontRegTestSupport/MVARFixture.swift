import FontRegCore
import Foundation

/// A variable font with an `MVAR` and an `avar` table, built by `scripts/build-mvar-fixture.py`
/// from AxisFixture (no font on the test machines has an `MVAR` with metric tags), and fontTools'
/// instancer's metrics for it at the locations asked.
package enum MVARFixture {
    /// The four-axis source font.
    package static let source = Fixtures.matching + "/axis/AxisFixture[opsz,slnt,wdth,wght].ttf"
    /// The script that builds the fixture and prints fontTools' metrics.
    package static let script = Fixtures.repository + "/scripts/build-mvar-fixture.py"

    /// Builds the fixture into `directory`.
    ///
    /// - Parameters:
    ///   - directory: where the font goes (the caller removes it).
    ///   - options: the script's options (`--no-avar`, `--hhea-apart`).
    ///   - locations: `wght=450,wdth=87.5` strings; axes not named at their default.
    /// - Returns: the font's path and fontTools' metrics at each location, in order.
    package static func build(in directory: String, options: [String] = [], locations: [String]) throws -> (
        path: String, expected: [FaceMetrics]
    ) {
        let path = directory + "/MVARFixture[opsz,slnt,wdth,wght].ttf"
        let run = try runCommand(
            ["/usr/bin/env", PythonTools.python, script, source, path] + options + ["--metrics"] + locations)
        guard run.status == 0 else { throw Failure(message: run.stderr) }
        let expected = try run.stdout.split(separator: "\n").map { line in
            try JSONDecoder().decode(FaceMetrics.self, from: Data(line.utf8))
        }
        guard expected.count == locations.count else { throw Failure(message: "fontTools printed \(run.stdout)") }
        return (path, expected)
    }

    /// The script failed.
    package struct Failure: Error, CustomStringConvertible {
        package var message: String
        package var description: String { "build-mvar-fixture.py: \(message)" }
    }
}

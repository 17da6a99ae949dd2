import FontRegCore
import Foundation

/// Paths of the audit's fixtures, found from this file's location (not Bundle.module).
package enum AuditFixtures {
    /// `Tests/`.
    package static let testsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The repository root.
    package static let repositoryRoot = testsRoot.deletingLastPathComponent()

    /// A file under `Fixtures/tokens/`.
    package static func tokens(_ relative: String) -> String {
        testsRoot.appendingPathComponent("Fixtures/tokens").appendingPathComponent(relative).path
    }

    /// The generated fixture fonts (`Fixtures/fonts/families` and `variable`).
    static let fixtureFontDirectories = [
        testsRoot.appendingPathComponent("Fixtures/fonts/families").path,
        testsRoot.appendingPathComponent("Fixtures/fonts/variable").path,
    ]

    /// The bundled real fonts `fonts/Inter` and `fonts/Lato`.
    package static let bundledFontDirectories = [
        repositoryRoot.appendingPathComponent("fonts/Inter").path,
        repositoryRoot.appendingPathComponent("fonts/Lato").path,
    ]

    /// `--fonts DIR` arguments for the fixture fonts.
    package static var fixtureFontArguments: [String] { fixtureFontDirectories.flatMap { ["--fonts", $0] } }

    /// The fixture fonts scanned once, as the index the audit runs against.
    package static let fixtureIndex: FontIndex = {
        let registry = try! FontRegistry(configuration: RegistryConfiguration(fontDirectories: fixtureFontDirectories))
        return registry.index
    }()

    /// A temporary directory for one test.
    package static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fontreg-audit-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        ProcessScratch.removeAtExit(url.path)
        return url
    }
}

import FontRegCore
import Foundation

/// Paths of the committed fixtures and the repository, found from this file's location.
package enum Fixtures {
    /// The repository root.
    package static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `Tests/Fixtures/fonts`.
    package static let fonts = repository + "/Tests/Fixtures/fonts"
    package static let families = fonts + "/families"
    package static let bad = fonts + "/bad"
    /// `Tests/Fixtures/matching`: widths, oblique angles, synthesis, duplicates and AxisFixture (issue 11),
    /// outside `fonts/` so that registries of all of `fonts/` never see their deliberate duplicates.
    package static let matching = repository + "/Tests/Fixtures/matching"
    /// The bundled real fonts, `fonts/`.
    package static let bundled = repository + "/fonts"

    /// A registry over the good fixtures (everything but `bad/`), shared by read-only tests.
    package static let registry: FontRegistry = {
        let dirs = ["families", "variable", "collection", "web", "color"].map { fonts + "/" + $0 }
        return try! FontRegistry(configuration: RegistryConfiguration(fontDirectories: dirs))
    }()

    /// A fresh temporary directory, removed by the caller with `cleanUp`, and at exit if it is not.
    package static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "fontreg-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        ProcessScratch.removeAtExit(path)
        return path
    }

    package static func cleanUp(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Copies fixture files into a directory.
    package static func copy(_ names: [String], from folder: String = families, to directory: String) {
        for name in names {
            try! FileManager.default.copyItem(atPath: folder + "/" + name, toPath: directory + "/" + name)
        }
    }
}

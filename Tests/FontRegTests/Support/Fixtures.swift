import Foundation

@testable import FontRegAudit
@testable import FontRegCLI
@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegServer
@testable import FontRegService
@testable import FontRegSystem
@testable import Varlink

/// Paths of the committed fixtures and the repository, found from this file's location.
enum Fixtures {
    /// The repository root.
    static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `Tests/FontRegTests/Fixtures/fonts`.
    static let fonts = repository + "/Tests/FontRegTests/Fixtures/fonts"
    static let families = fonts + "/families"
    static let bad = fonts + "/bad"
    /// The bundled real fonts, `fonts/`.
    static let bundled = repository + "/fonts"

    /// A registry over the good fixtures (everything but `bad/`), shared by read-only tests.
    static let registry: FontRegistry = {
        let dirs = ["families", "variable", "collection", "web", "color"].map { fonts + "/" + $0 }
        return try! FontRegistry(configuration: RegistryConfiguration(fontDirectories: dirs))
    }()

    /// A fresh temporary directory, removed by the caller with `cleanUp`.
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "fontreg-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func cleanUp(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Copies fixture files into a directory.
    static func copy(_ names: [String], from folder: String = families, to directory: String) {
        for name in names {
            try! FileManager.default.copyItem(atPath: folder + "/" + name, toPath: directory + "/" + name)
        }
    }
}

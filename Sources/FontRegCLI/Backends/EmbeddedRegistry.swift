import FontRegCore
import Foundation

/// Builds an in-process registry from `--fonts DIR`, `--rules DIR` and `--system-fonts` (embedded mode, no daemon).
enum EmbeddedRegistry {
    /// Opens the registry the arguments describe.
    ///
    /// - Throws: ``RegistryError`` when a font directory does not exist.
    package static func open(_ arguments: ParsedArguments) throws(RegistryError) -> FontRegistry {
        var directories: [String] = []
        var files: [String] = []
        for path in arguments.values("fonts") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .fileNotFound(path: path)
            }
            if isDirectory.boolValue { directories.append(path) } else { files.append(path) }
        }
        return try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: directories, fontFiles: files, rulesDirectory: arguments.value("rules"),
                includeSystemFonts: arguments.has("system-fonts")))
    }
}

import Foundation

/// Where the emitted files go and where the fonts will be, so emitted paths point at real files.
package struct EmitLocations: Sendable, Hashable {
    /// The `--out` folder, absolute.
    package var output: String
    /// The `--copy-fonts` folder, absolute, when the fonts are copied; else the fonts stay where they are registered.
    package var copiedFonts: String?

    package init(output: String, copiedFonts: String? = nil) {
        self.output = Self.absolute(output)
        self.copiedFonts = copiedFonts.map(Self.absolute)
    }

    /// Where a font file will be: in the copy folder when fonts are copied, else where it is.
    package func location(ofFont file: String) -> String {
        guard let copiedFonts else { return Self.absolute(file) }
        return (copiedFonts as NSString).appendingPathComponent((file as NSString).lastPathComponent)
    }

    /// The path of `target` relative to the folder `base` (both absolute), with `..` where needed.
    package static func relativePath(of target: String, from base: String) -> String {
        let targetParts = absolute(target).split(separator: "/").map(String.init)
        let baseParts = absolute(base).split(separator: "/").map(String.init)
        var common = 0
        while common < min(targetParts.count, baseParts.count) && targetParts[common] == baseParts[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: baseParts.count - common)
        return (ups + targetParts[common...]).joined(separator: "/")
    }

    /// `path` made absolute against the working directory, with `.` and `..` removed.
    package static func absolute(_ path: String) -> String {
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}

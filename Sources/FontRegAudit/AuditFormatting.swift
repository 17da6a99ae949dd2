import FontRegCore
import Foundation

/// Small helpers shared by the renderers: sizes, paths and role words.
enum AuditFormatting {
    /// A file size for people: `312.4 kB`, `1.8 MB` (powers of 1000, as `ls --si` and Finder show).
    static func size(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if bytes < 1000 { return "\(bytes) B" }
        if value < 1_000_000 { return String(format: "%.1f kB", value / 1000) }
        if value < 1_000_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        return String(format: "%.1f GB", value / 1_000_000_000)
    }

    /// The path relative to the current directory when it lies below it, else unchanged.
    static func path(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// `used`, `Bold Text` or `used + Bold Text`.
    static func roles(_ roles: [String]) -> String {
        roles.map { $0 == "boldText" ? "Bold Text" : $0 }.joined(separator: " + ")
    }

    /// A weight with its name: `600 semibold`, `653`.
    static func weight(_ value: Int) -> String {
        guard let weight = FontWeight(value) else { return String(value) }
        return weight.displayName == String(value) ? String(value) : "\(value) \(weight.displayName)"
    }

    /// One line summing up the totals.
    static func summary(_ totals: AuditTotals) -> String {
        var parts = [
            "\(totals.requiredFaces) face\(totals.requiredFaces == 1 ? "" : "s") required",
            "\(totals.foundFaces) found",
        ]
        if totals.missingFaces > 0 { parts.append("\(totals.missingFaces) MISSING") }
        return parts.joined(separator: ", ")
            + "; ship \(totals.shipFiles) file\(totals.shipFiles == 1 ? "" : "s") (\(size(totals.shipBytes)))"
            + "; drop \(totals.unneededFiles) file\(totals.unneededFiles == 1 ? "" : "s") (\(size(totals.unneededBytes)))"
    }
}

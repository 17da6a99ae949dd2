import FontRegCore
import Foundation

/// Writes `flutter/pubspec.fonts.yaml`: the `flutter: fonts:` block with a `weight` and `style` per asset.
///
/// Assets are listed as `fonts/<file>` (copy them there with `--copy-fonts`, or adjust the folder).
/// Flutter accepts only the nine grid weights; a variable face is listed once without `weight`,
/// since Flutter draws its weights through font variations.
package enum FlutterFontEmitter {
    /// The fragment's path under `--out`.
    package static let path = "flutter/pubspec.fonts.yaml"

    /// Emits the pubspec fragment.
    package static func emit(_ wiring: AuditWiring) -> [EmittedFile] {
        var lines = [
            "# Merge into pubspec.yaml; written by fontresolve audit --emit flutter from the registered faces.",
            "flutter:",
            "  fonts:",
        ]
        for family in wiring.families {
            lines.append("    - family: \(yamlString(family.name))")
            lines.append("      fonts:")
            for face in family.faces {
                lines.append("        - asset: \(yamlString("fonts/" + face.fileName))")
                if !face.isVariable { lines.append("          weight: \(face.record.weight)") }
                if face.style != .normal { lines.append("          style: italic") }
            }
        }
        return [EmittedFile(path: path, content: .text(lines.joined(separator: "\n") + "\n"))]
    }

    /// A YAML scalar in double quotes (safe for any family or file name).
    static func yamlString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

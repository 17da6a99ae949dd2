import FontRegCore
import Foundation

/// Writes `flutter/pubspec.fonts.yaml`: the `flutter: fonts:` block with a `weight` and `style` per asset.
///
/// Assets are listed as `fonts/<file>` (copy them there with `--copy-fonts`, or adjust the folder).
/// Flutter accepts only the nine grid weights; a variable face is listed once without `weight`,
/// since Flutter draws its weights through font variations.
///
/// The text styles go to `flutter/fontreg_text_styles.dart` (``stylesPath``): a `TextStyle` per style
/// with its size and, from the layout answer, `height` (line height ÷ size) and
/// `leadingDistribution: TextLeadingDistribution.even`, Figma's half-leading.
package enum FlutterFontEmitter {
    /// The fragment's path under `--out`.
    package static let path = "flutter/pubspec.fonts.yaml"
    /// The text styles' Dart file under `--out`.
    package static let stylesPath = "flutter/fontreg_text_styles.dart"

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
        var files = [EmittedFile(path: path, content: .text(lines.joined(separator: "\n") + "\n"))]
        let styles = wiring.styles.filter { $0.family != nil }
        if !styles.isEmpty {
            var dart = [
                "// Written by fontresolve audit --emit flutter: the design system's text styles.",
                "import 'package:flutter/painting.dart';",
                "",
                "abstract final class FontRegTextStyles {",
            ]
            for style in styles { dart += textStyle(style) }
            dart.append("}")
            files.append(EmittedFile(path: stylesPath, content: .text(dart.joined(separator: "\n") + "\n")))
        }
        return files
    }

    /// A Dart identifier of a class name (`text-body-strong` → `textBodyStrong`).
    static func dartName(_ className: String) -> String {
        let parts = className.split(separator: "-")
        return (parts.first.map(String.init) ?? "style")
            + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// One `static const TextStyle`.
    static func textStyle(_ style: AuditWiring.Style) -> [String] {
        let use = style.use
        let grid = min(max(((use.weight.value + 50) / 100) * 100, 100), 900)
        var arguments = [
            "fontFamily: \(dartString(style.family ?? ""))", "fontWeight: FontWeight.w\(grid)",
            "fontStyle: FontStyle.\(use.style == .normal ? "normal" : "italic")",
        ]
        if style.face?.isVariable == true {
            arguments.append("fontVariations: [FontVariation('wght', \(use.weight.value))]")
        }
        if let size = use.size { arguments.append("fontSize: \(LayoutAnswer.format(size))") }
        if let layout = style.layout {
            arguments += [
                "height: \(LayoutAnswer.format(layout.flutter.height))",
                "leadingDistribution: TextLeadingDistribution.\(layout.flutter.leadingDistribution)",
            ]
        }
        var lines = ["  /// \(use.origin.name)"]
        if let layout = style.layout {
            lines.append(
                "  /// Baseline \(LayoutAnswer.format(layout.figma.baseline)) from the line's top, as in Figma.")
        }
        lines.append("  static const \(dartName(style.className)) = TextStyle(")
        lines += arguments.map { "    \($0)," }
        return lines + ["  );"]
    }

    /// A Dart string in single quotes.
    static func dartString(_ text: String) -> String {
        "'"
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "$", with: "\\$") + "'"
    }

    /// A YAML scalar in double quotes (safe for any family or file name).
    static func yamlString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

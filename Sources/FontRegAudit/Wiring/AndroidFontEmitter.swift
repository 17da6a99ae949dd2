import FontRegCore
import Foundation

/// Writes `android/res/font/`: a font-family XML per family and the font files under Android-legal names.
///
/// Android resource names allow only `a–z`, `0–9` and `_` and must start with a letter, so
/// `Lato-Bold.ttf` is copied as `lato_bold.ttf` and referred to as `@font/lato_bold`. Each
/// `<font>` carries the `android:` attributes (API 26+) and the `app:` ones AppCompat reads on
/// older releases. A variable face is listed once per weight it serves, with `fontVariationSettings`.
///
/// The text styles go to `android/res/values/fontreg_text_styles.xml`, one `<style>` per style
/// (``stylesPath``) to set on a `TextView` (API 28+): the family, weight and size, and, when the
/// style has a line height, `lineHeight`, `firstBaselineToTopHeight` (Figma's baseline) and
/// `includeFontPadding` false, from the layout answer.
package enum AndroidFontEmitter {
    /// The resource folder under `--out`.
    package static let folder = "android/res/font"
    /// The text styles' resource file under `--out`.
    package static let stylesPath = "android/res/values/fontreg_text_styles.xml"

    /// Emits the XML files and the copies of the fonts.
    package static func emit(_ wiring: AuditWiring) -> [EmittedFile] {
        var files: [EmittedFile] = []
        var copied: [String: String] = [:]
        for family in wiring.families {
            var entries: [String] = []
            for face in family.faces {
                let resource = resourceName(face.fileName, extension: true)
                if copied[resource] == nil {
                    copied[resource] = face.record.file
                    files.append(EmittedFile(path: "\(folder)/\(resource)", content: .copy(from: face.record.file)))
                }
                let reference = "@font/\(resourceName(face.fileName, extension: false))"
                for weight in face.declaredWeights {
                    entries.append(fontElement(face: face, weight: weight, reference: reference))
                }
            }
            let xml =
                [
                    "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
                    "<!-- \(escape(family.name)): written by fontresolve audit (emit android) from the registered faces. -->",
                    "<font-family xmlns:android=\"http://schemas.android.com/apk/res/android\"",
                    "    xmlns:app=\"http://schemas.android.com/apk/res-auto\">",
                ] + entries + ["</font-family>"]
            let name = resourceName(family.name, extension: false)
            files.append(EmittedFile(path: "\(folder)/\(name).xml", content: .text(xml.joined(separator: "\n") + "\n")))
        }
        let styles = wiring.styles.filter { $0.family != nil }
        if !styles.isEmpty {
            let xml =
                [
                    "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
                    "<!-- Text styles: written by fontresolve audit (emit android); set one with style=\"@style/…\" on a TextView (API 28+). -->",
                    "<resources>",
                ] + styles.flatMap(styleElement) + ["</resources>"]
            files.append(EmittedFile(path: stylesPath, content: .text(xml.joined(separator: "\n") + "\n")))
        }
        return files
    }

    /// The `<style>` name of a text style: `FontReg.` and the class name in upper camel case (`FontReg.TextBodyStrong`).
    static func styleName(_ style: AuditWiring.Style) -> String {
        "FontReg." + style.className.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// One `<style>` with the face and the layout answer's values in `sp`.
    static func styleElement(_ style: AuditWiring.Style) -> [String] {
        var items = [
            ("android:fontFamily", "@font/\(resourceName(style.family ?? "", extension: false))"),
            ("android:textFontWeight", "\(style.use.weight.value)"),
            ("android:textStyle", style.use.style == .normal ? "normal" : "italic"),
        ]
        if let size = style.use.size { items.append(("android:textSize", sp(size))) }
        if let layout = style.layout {
            items += [
                ("android:lineHeight", sp(layout.android.lineHeight)),
                ("android:firstBaselineToTopHeight", sp(layout.android.firstBaselineToTopHeight)),
                ("android:lastBaselineToBottomHeight", sp(layout.android.lastBaselineToBottomHeight)),
                ("android:includeFontPadding", layout.android.includeFontPadding ? "true" : "false"),
            ]
        }
        return ["    <!-- \(escape(style.use.origin.name)) -->", "    <style name=\"\(styleName(style))\">"]
            + items.map { "        <item name=\"\($0.0)\">\(escape($0.1))</item>" } + ["    </style>"]
    }

    /// A length in scaled pixels (`18.192sp`).
    static func sp(_ value: Double) -> String { "\(LayoutAnswer.format(value))sp" }

    /// One `<font>` element with both attribute sets.
    static func fontElement(face: AuditWiring.Face, weight: Int, reference: String) -> String {
        let style = face.style == .normal ? "normal" : "italic"
        var attributes = [
            "android:fontStyle=\"\(style)\"", "android:fontWeight=\"\(weight)\"", "android:font=\"\(reference)\"",
        ]
        let settings = face.variationSettings(for: weight)
        if !settings.isEmpty {
            let text = settings.map { "'\($0.tag)' \(CSSFontFaceEmitter.number($0.value))" }.joined(separator: ", ")
            attributes.append("android:fontVariationSettings=\"\(text)\"")
        }
        attributes += ["app:fontStyle=\"\(style)\"", "app:fontWeight=\"\(weight)\"", "app:font=\"\(reference)\""]
        return "    <font\n" + attributes.map { "        \($0)" }.joined(separator: "\n") + " />"
    }

    /// An Android resource name: lower case, `_` for anything else, a leading letter (`Lato-Bold.ttf` → `lato_bold.ttf`).
    package static func resourceName(_ name: String, extension keepExtension: Bool) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        let stem =
            ext.isEmpty || ["ttf", "otf", "ttc", "otc", "woff", "woff2"].contains(ext) == false
            ? name : (name as NSString).deletingPathExtension
        var result = ""
        for scalar in stem.lowercased().unicodeScalars {
            let legal = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if legal {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("_") {
                result += "_"
            }
        }
        result = result.trimmingCharacters(in: CharacterSet(charactersIn: "_"))
        if result.first.map({ !$0.isLetter }) ?? true { result = "font_" + result }
        return keepExtension && !ext.isEmpty && stem != name ? "\(result).\(ext)" : result
    }

    /// Text escaped for an XML comment or attribute.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "--", with: "- -")
    }
}

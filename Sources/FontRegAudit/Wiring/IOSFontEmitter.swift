import FontRegCore
import Foundation

/// Writes `ios/`: the `UIAppFonts` Info.plist fragment and a YMatterType font family per family and style.
///
/// YMatterType composes a face's name as `<familyName>-<weightName><Italic>` and asks UIKit for
/// it, so `familyName` is the PostScript prefix the files use and `weightName(for:)` is written
/// out whenever a shipped face's name differs from the default table (Lato's `Semibold`,
/// `Heavy`). `supportedWeights` lists the shipped weights, so Bold Text steps to a face that is there:
/// an off-grid weight (450 from a variable face) is listed as its nearest case (ties to the lighter,
/// 450 → `.regular`, see ``weightCase(for:)``), and a missing weight a face stands in for (600 drawn by
/// the 700) is listed with the stand-in's name, each with a comment in the emitted file.
/// A face whose name does not follow the pattern gets a `fontName(for:compatibleWith:)` override.
///
/// The text styles go to `ios/<prefix>Typography.swift`: a `Typography` per style (YMatterType's
/// `init(fontFamily:fontWeight:fontSize:lineHeight:)`, the same in both releases) with the style's
/// size and line height; YMatterType sets minimum = maximum line height and the baseline offset
/// from them, and a comment gives the layout answer's values (``LayoutAnswer/IOS``).
package enum IOSFontEmitter {
    /// The YMatterType release the emitted Swift compiles against (`--ios-api`).
    package enum API: String, Sendable, Hashable, CaseIterable {
        /// YMatterType 1.x: `FontRepresentable`, weight cases `.ultralight` and `.heavy`, no
        /// `supportedWeights` (Bold Text is overridden with `accessibilityBoldWeight(for:)`).
        case ymattertype1
        /// YMatterType 2.x: `FontFamily` with `supportedWeights`, weight cases `.extraLight`,
        /// `.extraBold` and `.extraBlack` (the default).
        case ymattertype2
    }

    /// How the Swift is written: the API it compiles against and the prefix of its type names.
    package struct Options: Sendable, Hashable {
        /// The YMatterType release.
        package var api: API
        /// Put before every type name (`--ios-prefix`), so that no emitted type collides with an
        /// app's own (`NotoSansFontFamily` is a name apps use): `FontReg` by default; empty for none.
        package var prefix: String

        package init(api: API = .ymattertype2, prefix: String = "FontReg") {
            self.api = api
            self.prefix = prefix
        }
    }

    /// The plist fragment's path under `--out`.
    package static let plistPath = "ios/UIAppFonts.plist"

    /// YMatterType 2's `Typography.FontWeight` cases by weight, and the default table's names.
    static let weightCases: [(weight: Int, name: String, defaultName: String)] = [
        (100, "thin", "Thin"), (200, "extraLight", "ExtraLight"), (300, "light", "Light"),
        (400, "regular", "Regular"), (500, "medium", "Medium"), (600, "semibold", "SemiBold"),
        (700, "bold", "Bold"), (800, "extraBold", "ExtraBold"), (900, "black", "Black"),
    ]

    /// The weight cases of an API: YMatterType 1 names 200 `.ultralight` and 800 `.heavy`; 2 adds
    /// `.extraBlack` (950), which an exhaustive `switch` must name too.
    static func cases(_ api: API) -> [(weight: Int, name: String, defaultName: String)] {
        switch api {
        case .ymattertype2:
            return weightCases + [(950, "extraBlack", "ExtraBlack")]
        case .ymattertype1:
            return weightCases.map { step in
                switch step.weight {
                case 200: (step.weight, "ultralight", step.defaultName)
                case 800: (step.weight, "heavy", step.defaultName)
                default: step
                }
            }
        }
    }

    /// Emits the plist fragment and the Swift files.
    package static func emit(_ wiring: AuditWiring, options: Options = Options()) -> [EmittedFile] {
        let fileNames = Array(Set(wiring.families.flatMap { $0.faces.map(\.fileName) })).sorted()
        let plist =
            [
                "<!-- Add to Info.plist: the fonts the design system uses, written by fontresolve audit (emit ios). -->",
                "<key>UIAppFonts</key>",
                "<array>",
            ] + fileNames.map { "    <string>\(AndroidFontEmitter.escape($0))</string>" } + ["</array>"]
        var files = [EmittedFile(path: plistPath, content: .text(plist.joined(separator: "\n") + "\n"))]
        for family in wiring.families {
            for style in [FontStyle.normal, .italic, .oblique] {
                let faces = family.faces.filter { $0.style == style }
                guard !faces.isEmpty else { continue }
                let typeName = options.prefix + swiftTypeName(family.name, style: style)
                files.append(
                    EmittedFile(
                        path: "ios/\(typeName).swift",
                        content: .text(
                            source(typeName: typeName, family: family, faces: faces, style: style, api: options.api))))
            }
        }
        if let typography = typographySource(wiring.styles, options: options) {
            files.append(EmittedFile(path: "ios/\(options.prefix)Typography.swift", content: .text(typography)))
        }
        return files
    }

    /// A Swift identifier of a class name (`text-body-strong` → `textBodyStrong`).
    static func typographyName(_ className: String) -> String {
        let parts = className.split(separator: "-")
        return (parts.first.map(String.init) ?? "style")
            + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The `Typography` declarations of the styles with a shipped face, a size and a line height; `nil` when none has.
    static func typographySource(_ styles: [AuditWiring.Style], options: Options = Options()) -> String? {
        let declared = styles.filter { $0.family != nil && $0.layout != nil }
        guard !declared.isEmpty else { return nil }
        var lines = [
            "// Written by fontresolve audit (emit ios, \(options.api.rawValue)): the design system's text styles.",
            "import UIKit",
            "import YMatterType",
            "",
            "extension Typography {",
        ]
        for style in declared {
            guard let family = style.family, let layout = style.layout else { continue }
            let typeName = options.prefix + swiftTypeName(family, style: style.use.style)
            let weight = cases(options.api).first { $0.weight == weightCase(for: style.use.weight.value) }?.name
            let ios = layout.ios
            lines += [
                "    /// \(style.use.origin.name): line height \(LayoutAnswer.format(layout.lineHeight)) (minimum = maximum),"
                    + " baselineOffset \(LayoutAnswer.format(ios.baselineOffset)) at @\(LayoutAnswer.format(ios.screenScale))x;"
                    + " baseline \(LayoutAnswer.format(ios.baseline)) from the line's top (Figma: \(LayoutAnswer.format(layout.figma.baseline))).",
                "    static let \(typographyName(style.className)) = Typography(",
                "        fontFamily: \(typeName)(), fontWeight: .\(weight ?? "regular"),"
                    + " fontSize: \(LayoutAnswer.format(layout.size)), lineHeight: \(LayoutAnswer.format(layout.lineHeight)))",
            ]
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The YMatterType case (by its weight) a required weight is declared as.
    ///
    /// A grid weight is its own case. `Typography.FontWeight` has only the nine steps, so an off-grid
    /// weight (450, served by a variable face) takes the nearest case; a tie goes to the lighter one
    /// (450 → `.regular`), because Bold Text steps to the heavier neighbour and must stay heavier.
    /// Weights outside 100…900 take the end cases.
    static func weightCase(for weight: Int) -> Int {
        let clamped = min(max(weight, 100), 900)
        let lower = (clamped / 100) * 100
        let upper = lower == clamped ? lower : lower + 100
        return clamped - lower <= upper - clamped ? lower : upper
    }

    /// The PostScript name of each shipped weight case (a variable face's default name for every weight it serves).
    ///
    /// Grid weights come first; an off-grid weight then fills its nearest case (``weightCase(for:)``) when no
    /// face of that case's weight ships; a face standing in for a missing weight names that weight's case.
    static func names(_ faces: [AuditWiring.Face]) -> [Int: String] {
        var names: [Int: String] = [:]
        for face in faces {
            for weight in face.weights where weight % 100 == 0 && (100...900).contains(weight) {
                names[weight] = face.record.postscriptName
            }
        }
        for face in faces {
            for weight in face.weights + face.standsInFor where names[weightCase(for: weight)] == nil {
                names[weightCase(for: weight)] = face.record.postscriptName
            }
        }
        return names
    }

    /// Comments for the cases that are not a face of exactly their weight: off-grid weights and stand-ins.
    static func caseNotes(_ faces: [AuditWiring.Face], api: API) -> [String] {
        var notes: [String] = []
        for face in faces {
            for weight in face.weights where weight != weightCase(for: weight) {
                let name = cases(api).first { $0.weight == weightCase(for: weight) }?.name ?? "regular"
                notes.append(
                    "    // \(weight) is off the grid: declare its styles as .\(name) (YMatterType has the nine steps); \(face.record.postscriptName) draws it."
                )
            }
            for weight in face.standsInFor {
                let name = cases(api).first { $0.weight == weightCase(for: weight) }?.name ?? "regular"
                notes.append(
                    "    // .\(name): no face of weight \(weight) ships; \(face.record.postscriptName) (\(face.record.weight)) stands in."
                )
            }
        }
        return notes
    }

    /// The Swift source of one family, for the YMatterType release `api`.
    static func source(
        typeName: String, family: AuditWiring.Family, faces: [AuditWiring.Face], style: FontStyle,
        api: API = .ymattertype2
    ) -> String {
        let steps = cases(api)
        let byWeight = names(faces)
        let prefix = familyPrefix(byWeight.values)
        let suffix = style == .normal ? "" : "Italic"
        var weightNames: [Int: String] = [:]
        var followsPattern = true
        for (weight, name) in byWeight {
            guard name.hasPrefix(prefix + "-"), name.hasSuffix(suffix) else {
                followsPattern = false
                continue
            }
            weightNames[weight] = String(name.dropFirst(prefix.count + 1).dropLast(suffix.count))
        }
        let shipped = steps.filter { byWeight[$0.weight] != nil }
        let supported = shipped.map { ".\($0.name)" }
        let conformance = api == .ymattertype1 ? "FontRepresentable" : "FontFamily"
        var lines = [
            "// Written by fontresolve audit (emit ios, \(api.rawValue)) from the registered faces of \(family.registeredFamily).",
            "import UIKit",
            "import YMatterType",
            "",
            "/// \(family.name) (\(style.rawValue)): the faces listed in UIAppFonts, named as the font files name them.",
            "struct \(typeName): \(conformance) {",
            "    let familyName = \(swiftString(prefix))",
        ]
        if style != .normal { lines.append("    let fontNameSuffix = \(swiftString(suffix))") }
        lines += [""] + caseNotes(faces, api: api)
        switch api {
        case .ymattertype2:
            lines += ["    var supportedWeights: [Typography.FontWeight] { [\(supported.joined(separator: ", "))] }"]
        case .ymattertype1:
            // 1.x has no supportedWeights: Bold Text steps to the next shipped weight here.
            lines += [
                "    func accessibilityBoldWeight(for weight: Typography.FontWeight) -> Typography.FontWeight {",
                "        let shipped: [Typography.FontWeight] = [\(supported.joined(separator: ", "))]",
                "        return shipped.first { $0.rawValue > weight.rawValue } ?? shipped.last ?? weight",
                "    }",
            ]
        }
        let differs = steps.contains { step in weightNames[step.weight].map { $0 != step.defaultName } ?? false }
        if followsPattern && differs {
            lines += [
                "", "    func weightName(for weight: Typography.FontWeight) -> String {", "        switch weight {",
            ]
            for step in steps {
                lines.append(
                    "        case .\(step.name): return \(swiftString(weightNames[step.weight] ?? step.defaultName))")
            }
            lines += ["        }", "    }"]
        } else if !followsPattern {
            lines += [
                "",
                "    func fontName(for weight: Typography.FontWeight, compatibleWith traitCollection: UITraitCollection?) -> String {",
                "        let bold = traitCollection?.legibilityWeight == .bold",
                "        switch bold ? accessibilityBoldWeight(for: weight) : weight {",
            ]
            let fallback = byWeight[byWeight.keys.sorted().first ?? 400] ?? prefix
            for step in steps {
                lines.append("        case .\(step.name): return \(swiftString(byWeight[step.weight] ?? fallback))")
            }
            lines += ["        }", "    }"]
        }
        lines += ["}"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The part of the PostScript names before the first hyphen that most of them share (`Lato`).
    static func familyPrefix<S: Sequence>(_ names: S) -> String where S.Element == String {
        var counts: [String: Int] = [:]
        for name in names { counts[String(name.split(separator: "-").first ?? Substring(name)), default: 0] += 1 }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
    }

    /// A Swift type name for a family (`Lato` → `LatoFontFamily`, italic → `LatoItalicFontFamily`).
    static func swiftTypeName(_ family: String, style: FontStyle) -> String {
        var name = ""
        var upper = true
        for scalar in family.unicodeScalars {
            let legal =
                (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
            if legal {
                name += upper ? String(scalar).uppercased() : String(scalar)
                upper = false
            } else {
                upper = true
            }
        }
        if name.first.map({ $0.isNumber }) ?? true { name = "Font" + name }
        return name + (style == .normal ? "" : "Italic") + "FontFamily"
    }

    /// A Swift string literal.
    static func swiftString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

import FontRegCore
import FontRegJSON
import Foundation

/// Writes `style-dictionary/fonts.tokens.json`: a DTCG token file with the resolved faces.
///
/// Per family a `fontFamily` token with the family as the tokens name it, and per shipped face
/// and weight a `typography` token referring to it, whose `$extensions["io.fontreg.face"]`
/// holds the real PostScript name, the registered family, the file (relative to the token file)
/// and its format (and `standsInFor`, the missing weights a face stands in for). The file reads back with the audit's own DTCG reader, so a Style Dictionary
/// build (`source: ["style-dictionary/*.tokens.json"]`) and the audit see the same faces.
///
/// Each text style with a shipped face is a `typography` token under `font.style.<class name>`
/// with its size (a DTCG dimension in `px`) and line height (a multiple of the size, as DTCG
/// writes it), and the layout answer in `$extensions["io.fontreg.layout"]`: Figma's baseline, the
/// CSS overrides, iOS, Android and Flutter values.
package enum StyleDictionaryEmitter {
    /// The token file's path under `--out`.
    package static let path = "style-dictionary/fonts.tokens.json"

    /// Emits the token file.
    package static func emit(_ wiring: AuditWiring, locations: EmitLocations) -> [EmittedFile] {
        let folder = (locations.output as NSString).appendingPathComponent("style-dictionary")
        var families: [String: JSONValue] = [:]
        var faces: [String: JSONValue] = [:]
        for family in wiring.families {
            let key = AndroidFontEmitter.resourceName(family.name, extension: false)
            families[key] = ["$type": "fontFamily", "$value": .string(family.name)]
            var entries: [String: JSONValue] = [:]
            for face in family.faces {
                let file = EmitLocations.relativePath(of: locations.location(ofFont: face.record.file), from: folder)
                for weight in face.declaredWeights {
                    var value: [String: JSONValue] = [
                        "fontFamily": .string("{font.family.\(key)}"), "fontWeight": .int(weight),
                    ]
                    if face.style != .normal { value["fontStyle"] = .string(face.style.rawValue) }
                    let name = face.style == .normal ? "\(weight)" : "\(weight)-\(face.style.rawValue)"
                    var extensions: [String: JSONValue] = [
                        "postscriptName": .string(face.record.postscriptName),
                        "registeredFamily": .string(face.record.family), "file": .string(file),
                        "format": .string(face.cssFormat), "variable": .bool(face.isVariable),
                    ]
                    if !face.standsInFor.isEmpty {
                        extensions["standsInFor"] = .array(face.standsInFor.map { .int($0) })
                    }
                    entries[name] = [
                        "$type": "typography", "$value": .object(value),
                        "$extensions": ["io.fontreg.face": .object(extensions)],
                    ]
                }
            }
            faces[key] = .object(entries)
        }
        var styles: [String: JSONValue] = [:]
        for style in wiring.styles {
            guard let family = style.family else { continue }
            styles[style.className] = token(style, familyKey: AndroidFontEmitter.resourceName(family, extension: false))
        }
        var font: [String: JSONValue] = ["family": .object(families), "face": .object(faces)]
        if !styles.isEmpty { font["style"] = .object(styles) }
        let root: JSONValue = [
            "$description": "Written by fontresolve audit --emit style-dictionary from the registered faces.",
            "font": .object(font),
        ]
        return [EmittedFile(path: path, content: .text(root.prettyPrinted() + "\n"))]
    }

    /// A text style's `typography` token with the layout answer in its extensions.
    static func token(_ style: AuditWiring.Style, familyKey: String) -> JSONValue {
        var value: [String: JSONValue] = [
            "fontFamily": .string("{font.family.\(familyKey)}"), "fontWeight": .int(style.use.weight.value),
        ]
        if style.use.style != .normal { value["fontStyle"] = .string(style.use.style.rawValue) }
        if let size = style.use.size { value["fontSize"] = ["value": .double(size), "unit": "px"] }
        var token: [String: JSONValue] = ["$type": "typography"]
        if let layout = style.layout {
            value["lineHeight"] = .double(layout.flutter.height)
            token["$extensions"] = ["io.fontreg.layout": layoutJSON(layout)]
        }
        token["$value"] = .object(value)
        token["$description"] = .string(style.use.origin.name)
        return .object(token)
    }

    /// The layout answer's per-platform values.
    static func layoutJSON(_ layout: LayoutAnswer) -> JSONValue {
        [
            "face": .string(layout.face.postscriptName), "size": .double(layout.size),
            "lineHeight": .double(layout.lineHeight),
            "figma": [
                "baseline": .double(layout.figma.baseline), "autoLineHeight": .double(layout.figma.autoLineHeight),
            ],
            "css": [
                "lineHeight": .double(layout.css.lineHeight), "baseline": .double(layout.css.baseline),
                "ascentOverride": .double(layout.css.ascentOverride),
                "descentOverride": .double(layout.css.descentOverride),
                "lineGapOverride": .double(layout.css.lineGapOverride), "sizeAdjust": .double(layout.css.sizeAdjust),
            ],
            "ios": [
                "minimumLineHeight": .double(layout.ios.minimumLineHeight),
                "maximumLineHeight": .double(layout.ios.maximumLineHeight),
                "baselineOffset": .double(layout.ios.baselineOffset),
            ],
            "android": [
                "lineHeight": .double(layout.android.lineHeight),
                "firstBaselineToTopHeight": .double(layout.android.firstBaselineToTopHeight),
                "includeFontPadding": .bool(layout.android.includeFontPadding),
            ],
            "flutter": [
                "height": .double(layout.flutter.height),
                "leadingDistribution": .string(layout.flutter.leadingDistribution),
            ],
        ]
    }
}

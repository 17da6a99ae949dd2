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
        let root: JSONValue = [
            "$description": "Written by fontresolve audit --emit style-dictionary from the registered faces.",
            "font": ["family": .object(families), "face": .object(faces)],
        ]
        return [EmittedFile(path: path, content: .text(root.prettyPrinted() + "\n"))]
    }
}

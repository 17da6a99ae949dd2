import FontRegCore
import FontRegJSON

/// The input formats the audit reads.
package enum AuditInputFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// W3C Design Tokens Community Group format (`$value`, `$type`, 2025.10 report); `heavy` is 900.
    case dtcg
    /// Tokens Studio for Figma JSON (`value`/`type` or `$value`/`$type`, Figma weight names); `heavy` is 900.
    case tokensStudio = "tokens-studio"
    /// Style Dictionary's own form: `value` without `$`, the type in `type` or named by a `$schema` URL
    /// (…/token-types/font-weight.json, as Adobe Spectrum writes), `deprecated: true`; `heavy` is 900.
    case styleDictionary = "style-dictionary"
    /// A Figma Variables export (the REST API's `GET /v1/files/:key/variables/local` JSON).
    case figmaVariables = "figma-variables"
    /// YMatterType `Typography` declarations in Swift source; Apple weight names, `heavy` is 800.
    case swift
    /// CSS: custom properties (`--font-weight-semibold: 600`) and rules setting `font-family`/`font`;
    /// `heavy` is not a CSS keyword.
    case css
    /// Plain object literals exported by a TypeScript/JavaScript module, read statically; `heavy` is 900.
    case tokenModule = "js-module"
    /// fontreg's own list of text styles (see `docs/audit.md`); `heavy` is 800.
    case native

    /// Parses a `--format` value; accepts a few spellings (`w3c`, `tokensstudio`, `figma`, `ymattertype`).
    package init?(name: String) {
        switch FontWeight.normalizedName(name) {
        case "dtcg", "w3c", "designtokens": self = .dtcg
        case "tokensstudio", "figma", "studio": self = .tokensStudio
        case "swift", "ymattertype": self = .swift
        case "native", "fontreg", "textstyles": self = .native
        case "figmavariables", "variables": self = .figmaVariables
        case "styledictionary", "sd", "spectrum": self = .styleDictionary
        case "css": self = .css
        case "jsmodule", "ts", "js", "typescript", "javascript", "module": self = .tokenModule
        default: return nil
        }
    }

    /// Tells a JSON document's format from its content.
    ///
    /// - `variables` and `variableCollections` (at the top or under `meta`): a Figma Variables export.
    /// - A `textStyles` array, or a top-level array of objects with `family`: native.
    /// - Tokens Studio's `$themes`/`$metadata`, a token written with `value` (no `$`), or one of its
    ///   plural types (`fontWeights`, `fontFamilies`, …): Tokens Studio.
    /// - A token written with `value` and a `$schema` URL naming its type: Style Dictionary.
    /// - Otherwise any `$value`: DTCG.
    /// - Returns: `nil` when nothing tells.
    package static func detect(json root: SourceJSONValue) -> AuditInputFormat? {
        if root["textStyles"]?.arrayValue != nil { return .native }
        if FigmaVariablesReader.variables(in: root) != nil { return .figmaVariables }
        if let array = root.arrayValue, array.contains(where: { $0["family"] != nil }) { return .native }
        if root["$themes"] != nil || root["$metadata"] != nil { return .tokensStudio }
        var sawDollarValue = false
        var sawStudio = false
        var sawSchema = false
        func walk(_ node: SourceJSONValue, depth: Int) {
            guard depth < 64, let members = node.members else { return }
            if node["$value"] != nil {
                sawDollarValue = true
                if let type = node["$type"]?.stringValue, studioTypes.contains(type) { sawStudio = true }
                return
            }
            if node["value"] != nil, node["$schema"]?.stringValue != nil {
                sawSchema = true
                return
            }
            if node["value"] != nil, node["type"]?.stringValue != nil {
                sawStudio = true
                return
            }
            for member in members { walk(member.value, depth: depth + 1) }
        }
        walk(root, depth: 0)
        if sawSchema { return .styleDictionary }
        if sawStudio { return .tokensStudio }
        if sawDollarValue { return .dtcg }
        return nil
    }

    /// Token types only Tokens Studio writes.
    static let studioTypes: Set<String> = [
        "fontWeights", "fontFamilies", "fontSizes", "lineHeights", "letterSpacing", "paragraphSpacing",
        "textCase", "textDecoration", "sizing", "spacing", "borderRadius", "boxShadow", "opacity", "other",
    ]

    /// What a JSON document that is no known format looks like, for the error: its kind and top-level
    /// keys, and the format it resembles when one is close (a Tokens Studio `$themes.json` given alone).
    static func describeShape(json root: SourceJSONValue) -> String {
        if let items = root.arrayValue {
            if items.contains(where: { $0["selectedTokenSets"] != nil }) {
                return
                    "an array of Tokens Studio themes (a $themes.json); pass the folder that holds it with $metadata.json and the set files"
            }
            let keys = Array(Set(items.flatMap { $0.members?.map(\.key) ?? [] })).sorted().prefix(6)
            return "an array of \(items.count) item\(items.count == 1 ? "" : "s")"
                + (keys.isEmpty ? "" : " with keys \(keys.joined(separator: ", "))")
                + "; a native list is an array of objects with \"family\""
        }
        if let members = root.members {
            if root["tokenSetOrder"] != nil {
                return
                    "a Tokens Studio $metadata.json; pass the folder that holds it with $themes.json and the set files"
            }
            if members.isEmpty { return "an empty object" }
            let keys = members.prefix(6).map(\.key).joined(separator: ", ")
            return
                "an object with keys \(keys)\(members.count > 6 ? ", …" : "") and no token in it (no object holds $value or value)"
        }
        return "a single \(root.kindName), not an object of tokens"
    }
}

import FontRegCore
import FontRegJSON

/// The input formats the audit reads.
package enum AuditInputFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// W3C Design Tokens Community Group format (`$value`, `$type`, 2025.10 report); `heavy` is 900.
    case dtcg
    /// Tokens Studio for Figma JSON (`value`/`type` or `$value`/`$type`, Figma weight names); `heavy` is 900.
    case tokensStudio = "tokens-studio"
    /// A Figma Variables export (the REST API's `GET /v1/files/:key/variables/local` JSON).
    case figmaVariables = "figma-variables"
    /// YMatterType `Typography` declarations in Swift source; Apple weight names, `heavy` is 800.
    case swift
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
        default: return nil
        }
    }

    /// Tells a JSON document's format from its content.
    ///
    /// - `variables` and `variableCollections` (at the top or under `meta`): a Figma Variables export.
    /// - A `textStyles` array, or a top-level array of objects with `family`: native.
    /// - Tokens Studio's `$themes`/`$metadata`, a token written with `value` (no `$`), or one of its
    ///   plural types (`fontWeights`, `fontFamilies`, …): Tokens Studio.
    /// - Otherwise any `$value`: DTCG.
    /// - Returns: `nil` when nothing tells.
    package static func detect(json root: SourceJSONValue) -> AuditInputFormat? {
        if root["textStyles"]?.arrayValue != nil { return .native }
        if FigmaVariablesReader.variables(in: root) != nil { return .figmaVariables }
        if let array = root.arrayValue, array.contains(where: { $0["family"] != nil }) { return .native }
        if root["$themes"] != nil || root["$metadata"] != nil { return .tokensStudio }
        var sawDollarValue = false
        var sawStudio = false
        func walk(_ node: SourceJSONValue, depth: Int) {
            guard depth < 64, let members = node.members else { return }
            if node["$value"] != nil {
                sawDollarValue = true
                if let type = node["$type"]?.stringValue, studioTypes.contains(type) { sawStudio = true }
                return
            }
            if node["value"] != nil, let type = node["type"]?.stringValue {
                _ = type
                sawStudio = true
                return
            }
            for member in members { walk(member.value, depth: depth + 1) }
        }
        walk(root, depth: 0)
        if sawStudio { return .tokensStudio }
        if sawDollarValue { return .dtcg }
        return nil
    }

    /// Token types only Tokens Studio writes.
    static let studioTypes: Set<String> = [
        "fontWeights", "fontFamilies", "fontSizes", "lineHeights", "letterSpacing", "paragraphSpacing",
        "textCase", "textDecoration", "sizing", "spacing", "borderRadius", "boxShadow", "opacity", "other",
    ]
}

import FontRegCore
import FontRegJSON

/// Reads fontreg's own list of text styles, for design systems kept in no other format.
///
/// ```json
/// { "textStyles": [
///     { "name": "body", "family": "Inter, sans-serif", "weight": 400 },
///     { "name": "quote", "family": ["Lora", "serif"], "weight": "semibold", "style": "italic" } ] }
/// ```
/// A bare top-level array of the same objects is accepted too. `family` is a name, a CSS stack
/// or an array; `weight` a number 1–1000 or a name from the project's table (`heavy` = 800);
/// `style` is `normal` (default), `italic` or `oblique`; `name` is optional. `supportedWeights`
/// (an array of weights) on a style limits the weights Bold Text may step to for that family.
/// `size` (pixels: `16`, `"16px"`, `"1rem"`) and `lineHeight` (`"24px"`, `1.5` or `"1.5"` a
/// multiple of the size, `"150%"`) are optional; with both, the emitters write the style's line box
/// (`"size": 16, "lineHeight": "24px"`).
struct NativeStyleListReader {
    let file: String
    let root: SourceJSONValue

    func read() throws(AuditInputError) -> TypographyDocument {
        let list: [SourceJSONValue]
        if let styles = root["textStyles"]?.arrayValue {
            list = styles
        } else if let array = root.arrayValue {
            list = array
        } else {
            throw .invalidStyle(
                file: file, location: "top level", position: root.position,
                reason: "expected {\"textStyles\": [ … ]} or an array of text styles")
        }
        var uses: [TypographyUse] = []
        for (index, entry) in list.enumerated() {
            let name = entry["name"]?.stringValue ?? "textStyles[\(index)]"
            guard entry.members != nil else {
                throw .invalidStyle(
                    file: file, location: name, position: entry.position,
                    reason: "a text style must be an object with family and weight")
            }
            let family: [String]
            switch entry["family"] {
            case .string(let text, _)?:
                family = [text]
            case .array(let values, let at)?:
                family = values.compactMap(\.stringValue)
                guard family.count == values.count, !family.isEmpty else {
                    throw .invalidStyle(
                        file: file, location: "\(name).family", position: at,
                        reason: "family must be a string or an array of strings")
                }
            default:
                throw .invalidStyle(
                    file: file, location: name, position: entry.position,
                    reason: "the text style has no \"family\"; add one, e.g. \"family\": \"Inter\"")
            }
            guard let weightValue = entry["weight"] else {
                throw .invalidStyle(
                    file: file, location: name, position: entry.position,
                    reason: "the text style has no \"weight\"; add one, e.g. \"weight\": 400")
            }
            let weight = try parseWeight(weightValue, location: "\(name).weight")
            var style = FontStyle.normal
            if let styleValue = entry["style"] {
                guard let text = styleValue.stringValue, let parsed = FontStyle(rawValue: text.lowercased()) else {
                    throw .invalidStyle(
                        file: file, location: "\(name).style", position: styleValue.position,
                        reason: "style must be \"normal\", \"italic\" or \"oblique\"")
                }
                style = parsed
            }
            var supported: [FontWeight]?
            if let list = entry["supportedWeights"]?.arrayValue {
                var weights: [FontWeight] = []
                for item in list { weights.append(try parseWeight(item, location: "\(name).supportedWeights")) }
                supported = weights.sorted()
            }
            var use = TypographyUse(
                familyStack: family, weight: weight, style: style,
                origin: UseOrigin(file: file, name: name, position: entry.position), supportedWeights: supported)
            use.size = try optional(
                entry, "size", style: name, parse: { TokenTypographyReader.pixels($0) },
                reason: "size must be a positive number of pixels: 16, \"16px\" or \"1rem\"")
            use.lineHeight = try optional(
                entry, "lineHeight", style: name, parse: { TokenTypographyReader.lineHeight($0) },
                reason: "lineHeight must be \"24px\", a multiple of the size (1.5) or a percentage (\"150%\")")
            uses.append(use)
        }
        return TypographyDocument(file: file, format: .native, uses: uses)
    }

    /// The optional member `key` of a style, parsed; `nil` when absent.
    ///
    /// - Throws: ``AuditInputError/invalidStyle(file:location:position:reason:)`` with `reason` when
    ///   present but `parse` gives `nil`.
    private func optional<Value>(
        _ entry: SourceJSONValue, _ key: String, style: String, parse: (SourceJSONValue) -> Value?, reason: String
    ) throws(AuditInputError) -> Value? {
        guard let value = entry[key] else { return nil }
        guard let parsed = parse(value) else {
            throw .invalidStyle(file: file, location: "\(style).\(key)", position: value.position, reason: reason)
        }
        return parsed
    }

    private func parseWeight(_ value: SourceJSONValue, location: String) throws(AuditInputError) -> FontWeight {
        if let number = value.intValue, let weight = FontWeight(number) { return weight }
        if let text = value.stringValue, let weight = FontWeight(parsing: text, heavy: .apple) { return weight }
        let shown: String
        switch value {
        case .number(_, let literal, _): shown = literal
        case .string(let text, _): shown = text
        default: shown = value.kindName
        }
        throw .unknownWeight(
            file: file, location: location, value: shown, position: value.position, accepted: FontWeight.acceptedNames)
    }
}

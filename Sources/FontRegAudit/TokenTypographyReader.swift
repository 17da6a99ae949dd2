import FontRegCore
import FontRegJSON
import Foundation

/// Reads the text styles of a DTCG, Tokens Studio or Style Dictionary file: every typography token
/// that is not deprecated, and every style kept as sibling font-family/font-weight/font-style tokens.
///
/// A typography token is a text style; `fontWeight` and `fontFamily` tokens are a palette and count
/// only through the styles that refer to them. Styles without a `fontWeight` get 400 (CSS's initial
/// value) and a note.
struct TokenTypographyReader {
    let tree: TokenTree
    let format: AuditInputFormat
    let includeDeprecated: Bool
    /// Files of token sets read for references only (a Tokens Studio theme's `source` sets).
    var referenceOnlyFiles: Set<String> = []
    /// The Tokens Studio theme read, named in every style's origin.
    var theme: String? = nil

    private var file: String { tree.file }
    private var weightTypes: Set<String> { format == .dtcg ? ["fontWeight"] : ["fontWeights", "fontWeight"] }
    private var familyTypes: Set<String> { format == .dtcg ? ["fontFamily"] : ["fontFamilies", "fontFamily"] }

    func read() throws(AuditInputError) -> TypographyDocument {
        var uses: [TypographyUse] = []
        var notes: [String] = []
        var reached = Set<String>()
        var deprecatedLeftOut: [String] = []
        for path in tree.order {
            guard let token = tree.token(at: path), tree.effectiveType(of: token) == "typography",
                !referenceOnlyFiles.contains(token.file)
            else { continue }
            if token.deprecated && !includeDeprecated {
                deprecatedLeftOut.append(path)
                continue
            }
            var visited: [String] = []
            var use = try readStyle(token, visited: &visited)
            use.origin.name = originName(token.path)
            reached.formUnion(visited)
            uses.append(use)
        }
        let siblings = try siblingStyles(reached: &reached, deprecatedLeftOut: &deprecatedLeftOut)
        uses += siblings
        if !deprecatedLeftOut.isEmpty {
            notes.append(
                "\(file): left out deprecated text styles \(deprecatedLeftOut.joined(separator: ", ")) (pass --include-deprecated to count them)"
            )
        }
        let palette = tree.order.compactMap { tree.token(at: $0) }.filter {
            weightTypes.contains($0.type ?? "") && !$0.deprecated && !reached.contains($0.path)
                && !referenceOnlyFiles.contains($0.file)
        }
        if !palette.isEmpty {
            let described = palette.map { token -> String in
                var visited: [String] = []
                let value = (try? tree.resolve(token.value, in: token.path, visited: &visited))
                let text = value.map(Self.literal) ?? "?"
                return "\(token.path) = \(text)"
            }
            notes.append(
                "\(file): weights defined but used by no text style (not counted): \(described.joined(separator: ", "))"
            )
        }
        if uses.isEmpty {
            notes.append(
                "\(file): no text style found: no typography token, and no font-family token with font-weight or font-style siblings"
            )
        }
        var document = TypographyDocument(file: file, format: format, uses: uses, notes: notes)
        document.languages = tree.topLevelStrings("$locales").flatMap {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { !$0.isEmpty }
        document.samples = tree.topLevelStrings("$samples")
        document.declaredFamilies = declaredFamilies()
        var contributing = Set(uses.map(\.origin.file))
        for path in reached { if let token = tree.token(at: path) { contributing.insert(token.file) } }
        document.idleFiles = tree.files.filter { !contributing.contains($0) && !referenceOnlyFiles.contains($0) }
        return document
    }

    /// The `fontFamily` tokens that are not deprecated, each with the first real family of its stack.
    private func declaredFamilies() -> [TypographyDocument.DeclaredFamily] {
        tree.order.compactMap { tree.token(at: $0) }.compactMap { token in
            guard familyTypes.contains(tree.effectiveType(of: token) ?? ""), !token.deprecated,
                !referenceOnlyFiles.contains(token.file)
            else { return nil }
            var visited: [String] = []
            guard let value = try? tree.resolve(token.value, in: token.path, visited: &visited) else { return nil }
            let names = value.stringValue.map { [$0] } ?? (value.arrayValue ?? []).compactMap(\.stringValue)
            guard let family = FamilyStack(names).primary else { return nil }
            return TypographyDocument.DeclaredFamily(
                family: family, origin: UseOrigin(file: token.file, name: token.path, position: token.position))
        }
    }

    static func literal(_ value: SourceJSONValue) -> String {
        switch value {
        case .number(_, let literal, _): literal
        case .string(let text, _): "\"\(text)\""
        default: value.kindName
        }
    }

    private func readStyle(_ token: TokenTree.Token, visited: inout [String]) throws(AuditInputError) -> TypographyUse {
        let value = try tree.resolve(token.value, in: token.path, visited: &visited)
        guard value.members != nil else {
            throw .invalidStyle(
                file: token.file, location: token.path, position: value.position,
                reason:
                    "a typography token's value must be an object with fontFamily and fontWeight, found \(value.kindName)"
            )
        }
        guard let familyValue = value["fontFamily"] else {
            throw .invalidStyle(
                file: token.file, location: token.path, position: value.position,
                reason: "the text style has no fontFamily; add one (a name, a stack or a reference)")
        }
        let family = try readFamily(familyValue, token: token, visited: &visited)
        var weight = FontWeight.regular
        var style = FontStyle.normal
        if let weightValue = value["fontWeight"] {
            (weight, style) = try readWeight(
                weightValue, token: token, location: "\(token.path).fontWeight", visited: &visited)
        }
        if let styleValue = value["fontStyle"] {
            style =
                try readStyleValue(
                    styleValue, token: token, location: "\(token.path).fontStyle", visited: &visited) ?? style
        }
        var use = TypographyUse(
            familyStack: family, weight: weight, style: style,
            origin: UseOrigin(file: token.file, name: token.path, position: token.position))
        use.size = value["fontSize"].flatMap { try? tree.resolve($0, in: token.path, visited: &visited) }
            .flatMap(Self.pixels)
        use.lineHeight = value["lineHeight"].flatMap { try? tree.resolve($0, in: token.path, visited: &visited) }
            .flatMap { Self.lineHeight($0, bareStringIsPixels: format == .tokensStudio) }
        return use
    }

    /// A font size in pixels: a number (pixels), `16px`, `1rem` (16 px), or a DTCG dimension `{value, unit}`.
    ///
    /// Anything else (a `calc()`, `em`) is not a size the layout can place: `nil`, and the style's
    /// emitted class carries no size.
    static func pixels(_ value: SourceJSONValue) -> Double? {
        if let number = value.doubleValue { return number > 0 ? number : nil }
        if let number = value["value"]?.doubleValue, let unit = value["unit"]?.stringValue {
            return pixels(number: number, unit: unit)
        }
        guard let text = value.stringValue?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
        for unit in ["px", "rem"] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).flatMap { pixels(number: $0, unit: unit) }
        }
        return Double(text).flatMap { $0 > 0 ? $0 : nil }
    }

    private static func pixels(number: Double, unit: String) -> Double? {
        guard number.isFinite, number > 0 else { return nil }
        switch unit.lowercased() {
        case "px": return number
        case "rem": return number * 16
        default: return nil
        }
    }

    /// A line height: a number is a multiple of the size (DTCG, CSS), a string `24px`, `1.5` or
    /// `150%`, a dimension `{value, unit}` pixels; `AUTO` and anything else `nil`.
    ///
    /// Tokens Studio writes a bare number as a string (`"24"`) for pixels (`bareStringIsPixels`).
    static func lineHeight(_ value: SourceJSONValue, bareStringIsPixels: Bool = false) -> LineHeight? {
        if let number = value.doubleValue { return number > 0 && number.isFinite ? .multiple(number) : nil }
        if value["unit"] != nil { return pixels(value).map(LineHeight.pixels) }
        guard let text = value.stringValue else { return nil }
        if text.lowercased().hasSuffix("rem") { return pixels(value).map(LineHeight.pixels) }
        if bareStringIsPixels, let number = Double(text.trimmingCharacters(in: .whitespaces)), number > 0 {
            return .pixels(number)
        }
        return LineHeight(parsing: text)
    }

    /// A font style token's value: `normal`, `italic`, `oblique` in any case (Tokens Studio writes `"Italic"`).
    func readStyleValue(_ raw: SourceJSONValue, token: TokenTree.Token, location: String, visited: inout [String])
        throws(AuditInputError) -> FontStyle?
    {
        let resolved = try tree.resolve(raw, in: token.path, visited: &visited)
        switch resolved.stringValue?.lowercased() {
        case "italic": return .italic
        case "oblique": return .oblique
        case "normal", "regular": return .normal
        default:
            throw .invalidStyle(
                file: token.file, location: location, position: resolved.position,
                reason: "a font style must be \"normal\", \"italic\" or \"oblique\", found \(Self.literal(resolved))")
        }
    }

    /// The token path as shown in an origin: with the theme when a Tokens Studio theme is read.
    func originName(_ path: String) -> String {
        guard let theme else { return path }
        return "\(path) [theme \(theme)]"
    }

    func readFamily(
        _ raw: SourceJSONValue, token: TokenTree.Token, location: String? = nil, visited: inout [String]
    ) throws(AuditInputError) -> [String] {
        let value = try tree.resolve(raw, in: token.path, visited: &visited)
        if let name = value.stringValue { return [name] }
        if let entries = value.arrayValue {
            var names: [String] = []
            for entry in entries {
                let resolved = try tree.resolve(entry, in: token.path, visited: &visited)
                guard let name = resolved.stringValue else {
                    throw .invalidStyle(
                        file: token.file, location: location ?? "\(token.path).fontFamily", position: resolved.position,
                        reason: "a font family stack must hold strings, found \(resolved.kindName)")
                }
                names.append(name)
            }
            if !names.isEmpty { return names }
        }
        throw .invalidStyle(
            file: token.file, location: location ?? "\(token.path).fontFamily", position: value.position,
            reason: "fontFamily must be a string or an array of strings, found \(value.kindName)")
    }

    func readWeight(_ raw: SourceJSONValue, token: TokenTree.Token, location: String, visited: inout [String])
        throws(AuditInputError) -> (FontWeight, FontStyle)
    {
        let value = try tree.resolve(raw, in: token.path, visited: &visited)
        if let number = value.doubleValue {
            guard let whole = Int(exactly: number), let weight = FontWeight(whole) else {
                throw .invalidStyle(
                    file: token.file, location: location, position: value.position,
                    reason: "font weight \(Self.literal(value)) must be a whole number from 1 to 1000")
            }
            return (weight, .normal)
        }
        guard let text = value.stringValue else {
            throw .invalidStyle(
                file: token.file, location: location, position: value.position,
                reason: "fontWeight must be a number or a name, found \(value.kindName)")
        }
        switch format {
        case .dtcg:
            guard let weight = WeightVocabulary.dtcgWeight(text) else {
                var accepted = WeightVocabulary.dtcg.map { "\($0.name) (\($0.weight))" }
                if WeightVocabulary.studioWeight(text) != nil {
                    // "Bold", "Semi Bold": a Figma name; the file may be Tokens Studio's.
                    accepted.append(
                        "(\"\(text)\" is a Figma name: if this is a Tokens Studio file, pass --format tokens-studio)")
                }
                throw .unknownWeight(
                    file: token.file, location: location, value: text, position: value.position, accepted: accepted)
            }
            return (weight, .normal)
        default:
            guard let parsed = WeightVocabulary.studioWeight(text) else {
                throw .unknownWeight(
                    file: token.file, location: location, value: text, position: value.position,
                    accepted: WeightVocabulary.studioAcceptedNames)
            }
            return (parsed.weight, parsed.style)
        }
    }
}

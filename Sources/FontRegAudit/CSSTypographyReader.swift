import FontRegJSON
import Foundation

/// Reads the typography of a CSS file: custom properties as tokens, and rules that set a font family as
/// text styles.
///
/// Custom properties (`--font-weight-semibold: 600`, in `:root` or any rule; a later one replaces an
/// earlier of the same name) become tokens, `var(--x)` a reference to `x`, so
/// `--heading-font-family` beside `--heading-font-weight` assembles into a style as sibling tokens
/// do. A rule whose declarations give `font-family` (or the `font` shorthand) is a text style named
/// by its selector (with the enclosing `@media`/`@supports` prelude); its `font-weight` and
/// `font-style` complete it. `@font-face` blocks declare faces, not styles, and are skipped.
struct CSSTypographyReader {
    let file: String
    let text: String

    /// One declaration: the property, its value and where it is.
    struct Declaration {
        var property: String
        var value: String
        var position: SourcePosition
    }

    /// One rule: its selector, the at-rule preludes around it and its declarations.
    struct Rule {
        var selector: String
        var context: [String]
        var declarations: [Declaration]
        var position: SourcePosition
    }

    /// Reads the file.
    ///
    /// - Throws: ``AuditInputError`` with line and column (an unclosed block, a bad weight).
    func read(includeDeprecated: Bool) throws(AuditInputError) -> TypographyDocument {
        let rules = try parse()
        var members: [SourceJSONMember] = []
        var notes: [String] = []
        var ruleNames: [String: Int] = [:]
        for rule in rules {
            for declaration in rule.declarations where declaration.property.hasPrefix("--") {
                let name = String(declaration.property.dropFirst(2))
                var token: [SourceJSONMember] = [
                    member("$value", tokenValue(declaration.value, property: name, at: declaration.position))
                ]
                if let type = Self.type(ofName: name) {
                    token.append(member("$type", .string(type, at: declaration.position)))
                }
                members.append(
                    SourceJSONMember(
                        key: name, keyPosition: declaration.position,
                        value: .object(token, at: declaration.position)))
            }
            let properties = Dictionary(
                rule.declarations.map { ($0.property.lowercased(), $0) }, uniquingKeysWith: { _, last in last })
            var style: [SourceJSONMember] = []
            if let font = properties["font"] {
                style += shorthand(font)
            }
            if let family = properties["font-family"] {
                style.removeAll { $0.key == "fontFamily" }
                style.append(member("fontFamily", reference(family.value, at: family.position)))
            }
            if let weight = properties["font-weight"] {
                style.removeAll { $0.key == "fontWeight" }
                if let value = weightValue(weight.value, at: weight.position) {
                    style.append(member("fontWeight", value))
                } else {
                    notes.append(
                        "\(file):\(weight.position.line):\(weight.position.column): \(rule.selector): font-weight \(weight.value) is relative to the parent's weight; not counted"
                    )
                }
            }
            if let fontStyle = properties["font-style"] {
                style.removeAll { $0.key == "fontStyle" }
                style.append(member("fontStyle", reference(fontStyle.value, at: fontStyle.position)))
            }
            for (property, key) in [("font-size", "fontSize"), ("line-height", "lineHeight")] {
                guard let declaration = properties[property] else { continue }
                style.removeAll { $0.key == key }
                style.append(member(key, reference(declaration.value, at: declaration.position)))
            }
            guard style.contains(where: { $0.key == "fontFamily" }) else {
                if style.contains(where: { $0.key == "fontWeight" }) {
                    notes.append(
                        "\(file):\(rule.position.line):\(rule.position.column): \(rule.selector) sets a weight but no font-family; its family is inherited, so it is not a text style of its own"
                    )
                }
                continue
            }
            var name = ([rule.selector] + rule.context.reversed()).joined(separator: " ")
            ruleNames[name, default: 0] += 1
            if ruleNames[name]! > 1 { name += " (\(ruleNames[name]!))" }
            members.append(
                SourceJSONMember(
                    key: name, keyPosition: rule.position,
                    value: .object(
                        [
                            member("$type", .string("typography", at: rule.position)),
                            member("$value", .object(style, at: rule.position)),
                        ], at: rule.position)))
        }
        let root = SourceJSONValue.object(members, at: SourcePosition(line: 1, column: 1))
        let tree = try TokenTree(root: root, file: file, dialect: .dtcg)
        var document = try TokenTypographyReader(tree: tree, format: .css, includeDeprecated: includeDeprecated).read()
        document.notes = notes + document.notes
        return document
    }

    private func member(_ key: String, _ value: SourceJSONValue) -> SourceJSONMember {
        SourceJSONMember(key: key, keyPosition: value.position, value: value)
    }

    /// The type a custom property's name implies (`--heading-font-weight` → `fontWeight`).
    static func type(ofName name: String) -> String? {
        let words = TokenTypographyReader.words(name)
        let pairs = zip(words, words.dropFirst()).map { "\($0) \($1)" }
        if pairs.contains("font weight") { return "fontWeight" }
        if pairs.contains("font family") { return "fontFamily" }
        if pairs.contains("font style") { return "fontStyle" }
        return nil
    }

    /// `var(--x)` or `var(--x, fallback)` at the start of a value: a reference to `x`; else the text.
    private func reference(_ value: String, at position: SourcePosition) -> SourceJSONValue {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("var(--"), let end = trimmed.firstIndex(where: { $0 == "," || $0 == ")" }) {
            let name = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 6)..<end]
            return .string("{\(name.trimmingCharacters(in: .whitespaces))}", at: position)
        }
        return .string(trimmed, at: position)
    }

    /// A custom property's value: a number, a reference or text.
    private func tokenValue(_ value: String, property: String, at position: SourcePosition) -> SourceJSONValue {
        if Self.type(ofName: property) == "fontWeight", let weight = weightValue(value, at: position) {
            return weight
        }
        if let number = Double(value.trimmingCharacters(in: .whitespaces)) {
            return .number(number, literal: value.trimmingCharacters(in: .whitespaces), at: position)
        }
        return reference(value, at: position)
    }

    /// A `font-weight` value: a number, `normal` (400), `bold` (700), a reference; `nil` for `bolder`/`lighter`.
    private func weightValue(_ value: String, at position: SourcePosition) -> SourceJSONValue? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "normal": return .number(400, literal: "400", at: position)
        case "bold": return .number(700, literal: "700", at: position)
        case "bolder", "lighter", "inherit", "initial", "unset", "revert": return nil
        default:
            if let number = Double(trimmed) { return .number(number, literal: trimmed, at: position) }
            return reference(trimmed, at: position)
        }
    }

    /// The `font` shorthand: `[style] [variant] [weight] [stretch] size[/line-height] family…`.
    private func shorthand(_ declaration: Declaration) -> [SourceJSONMember] {
        let position = declaration.position
        let value = declaration.value.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("var(") { return [] }
        let parts = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var result: [SourceJSONMember] = []
        let sizeKeywords: Set<String> = [
            "xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "xxx-large", "larger",
            "smaller",
        ]
        for (index, part) in parts.enumerated() {
            let lower = part.lowercased()
            let startsWithDigit = lower.first.map { $0.isNumber || $0 == "." } ?? false
            let isSize =
                sizeKeywords.contains(lower.split(separator: "/").first.map(String.init) ?? lower)
                || (startsWithDigit && Double(lower) == nil) || lower.hasPrefix("calc(") || lower.hasPrefix("var(")
            if isSize {
                var rest = parts[(index + 1)...]
                var size = part
                var lineHeight: String?
                if let slash = part.firstIndex(of: "/") {
                    size = String(part[..<slash])
                    lineHeight = String(part[part.index(after: slash)...])
                }
                if let first = rest.first, first.hasPrefix("/") {
                    lineHeight = first == "/" ? rest.dropFirst().first : String(first.dropFirst())
                    rest = first == "/" ? rest.dropFirst(2) : rest.dropFirst()
                }
                result.append(member("fontSize", .string(size, at: position)))
                if let lineHeight, !lineHeight.isEmpty {
                    result.append(member("lineHeight", .string(lineHeight, at: position)))
                }
                let family = rest.joined(separator: " ")
                if !family.isEmpty { result.append(member("fontFamily", reference(family, at: position))) }
                return result
            }
            if lower == "italic" || lower == "oblique" {
                result.append(member("fontStyle", .string(lower, at: position)))
            } else if let weight = Double(lower) {
                result.append(member("fontWeight", .number(weight, literal: lower, at: position)))
            } else if lower == "bold" {
                result.append(member("fontWeight", .number(700, literal: "700", at: position)))
            }
        }
        return []  // a system font keyword (`font: caption`) or no size: no family to audit
    }

    /// Splits the file into rules with their declarations, skipping comments and `@font-face`.
    func parse() throws(AuditInputError) -> [Rule] {
        var rules: [Rule] = []
        var stack: [(prelude: String, position: SourcePosition, declarations: [Declaration])] = []
        var buffer = ""
        var bufferStart: SourcePosition?
        var line = 1
        var column = 1
        var quote: Character?
        var parentheses = 0
        let characters = Array(text)
        var index = 0
        func flushDeclaration() {
            defer {
                buffer = ""
                bufferStart = nil
            }
            guard !stack.isEmpty, let colon = buffer.firstIndex(of: ":"), let start = bufferStart else { return }
            let property = buffer[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
            var value = buffer[buffer.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if value.lowercased().hasSuffix("!important") {
                value = String(value.dropLast("!important".count)).trimmingCharacters(in: .whitespaces)
            }
            guard !property.isEmpty else { return }
            stack[stack.count - 1].declarations.append(
                Declaration(property: property, value: value, position: start))
        }
        while index < characters.count {
            let character = characters[index]
            let position = SourcePosition(line: line, column: column)
            index += 1
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            if quote == nil && character == "/" && index < characters.count && characters[index] == "*" {
                // A comment: skip to its end, counting lines.
                index += 1
                column += 1
                while index < characters.count
                    && !(characters[index] == "*" && index + 1 < characters.count
                        && characters[index + 1] == "/")
                {
                    if characters[index] == "\n" {
                        line += 1
                        column = 1
                    } else {
                        column += 1
                    }
                    index += 1
                }
                index += 2
                column += 2
                continue
            }
            if let open = quote {
                buffer.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                if bufferStart == nil { bufferStart = position }
                buffer.append(character)
            case "(":
                parentheses += 1
                buffer.append(character)
            case ")":
                parentheses = max(0, parentheses - 1)
                buffer.append(character)
            case ";" where parentheses == 0:
                flushDeclaration()
            case "{" where parentheses == 0:
                let prelude = buffer.trimmingCharacters(in: .whitespacesAndNewlines)
                stack.append((prelude, bufferStart ?? position, []))
                buffer = ""
                bufferStart = nil
            case "}" where parentheses == 0:
                flushDeclaration()
                guard let block = stack.popLast() else {
                    throw .invalidStyle(
                        file: file, location: "CSS", position: position,
                        reason: "a } closes no block; remove it or add the rule it should end")
                }
                let preludes = stack.map(\.prelude)
                guard !block.prelude.lowercased().hasPrefix("@font-face"),
                    !preludes.contains(where: { $0.lowercased().hasPrefix("@font-face") }),
                    !block.prelude.hasPrefix("@")
                else { continue }
                rules.append(
                    Rule(
                        selector: block.prelude, context: preludes.reversed(), declarations: block.declarations,
                        position: block.position))
            default:
                if bufferStart == nil && !character.isWhitespace { bufferStart = position }
                buffer.append(character)
            }
        }
        if let open = stack.last {
            throw .invalidStyle(
                file: file, location: open.prelude.isEmpty ? "CSS" : open.prelude, position: open.position,
                reason: "the block opened here is never closed; add the missing }")
        }
        return rules
    }
}

import FontRegJSON
import Foundation

/// Reads the plain object literals a TypeScript/JavaScript token module exports, without running it.
///
/// `export const fontWeight = { regular: 400, bold: 700 } as const;`, `export default { … }` and
/// `module.exports = { … }` are read as JSON5 (unquoted keys, single quotes, trailing commas and
/// comments are all JSON5); a member given as a dotted name (`fontWeight: fontWeights.bold`) is
/// read as the reference `{fontWeights.bold}`. Every value becomes a token named by its path; a
/// name with `fontWeight`/`font-weight` or `fontFamily` in its path gives the token that type, and
/// `{fontFamily, fontWeight, fontStyle}` objects become styles as sibling tokens do. Anything else
/// (spreads, function calls, template literals) is refused by name, with the built output to pass
/// instead.
struct TokenModuleReader {
    let file: String
    let text: String

    /// Reads the module.
    ///
    /// - Throws: ``AuditInputError/unsupportedFormat(path:kind:advice:)`` when no export is a plain object
    ///   literal, naming the one that is not and where.
    func read(includeDeprecated: Bool) throws(AuditInputError) -> TypographyDocument {
        let literals = exportedLiterals()
        guard !literals.isEmpty else {
            throw TypographyReader.moduleError(file, detail: "it exports no object literal (export const NAME = { … })")
        }
        var members: [SourceJSONMember] = []
        for literal in literals {
            let value: SourceJSONValue
            do {
                value = try SourceJSONParser.parse(literal.text, file: file, dialect: .json5)
            } catch {
                throw TypographyReader.moduleError(
                    file,
                    detail:
                        "its export \(literal.name ?? "default") is not a plain object literal (\(error.position.line):\(error.position.column): \(error.message))"
                )
            }
            let tokens = Self.tokens(from: value, path: literal.name.map { [$0] } ?? [])
            if let name = literal.name {
                members.append(SourceJSONMember(key: name, keyPosition: literal.position, value: tokens))
            } else {
                members += tokens.members ?? []
            }
        }
        let root = SourceJSONValue.object(members, at: SourcePosition(line: 1, column: 1))
        let tree = try TokenTree(root: root, file: file, dialect: .dtcg)
        return try TokenTypographyReader(tree: tree, format: .tokenModule, includeDeprecated: includeDeprecated).read()
    }

    /// One exported object literal: its name (`nil` for a default export), the literal blanked into
    /// the file's layout so positions stay the file's own, and where its name is.
    struct Literal {
        var name: String?
        var text: String
        var position: SourcePosition
    }

    /// The object literals exported (or declared `const` at the top level), in file order.
    func exportedLiterals() -> [Literal] {
        let pattern =
            #"(?m)^\s*(?:export\s+)?(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)(?:\s*:\s*[^=\n]+)?\s*=|export\s+default|module\.exports\s*=)\s*\{"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let characters = Array(text.utf16)
        let nsText = text as NSString
        var literals: [Literal] = []
        for match in regex.matches(in: text, range: NSRange(location: 0, length: nsText.length)) {
            let open = match.range.location + match.range.length - 1
            guard let close = Self.matchingBrace(in: characters, from: open) else { continue }
            let name = match.range(at: 1).location == NSNotFound ? nil : nsText.substring(with: match.range(at: 1))
            // Blank everything before the literal, keeping newlines, so the parser's positions are the file's.
            var prefix = ""
            for unit in characters[..<open] { prefix += unit == 10 ? "\n" : " " }
            let body = nsText.substring(with: NSRange(location: open, length: close - open + 1))
            literals.append(
                Literal(
                    name: name, text: prefix + Self.referencesAsStrings(body),
                    position: position(
                        ofOffset: match.range(at: 1).location == NSNotFound
                            ? match.range.location : match.range(at: 1).location, in: characters)))
        }
        return literals
    }

    private func position(ofOffset offset: Int, in characters: [UInt16]) -> SourcePosition {
        var line = 1
        var column = 1
        for unit in characters[..<min(offset, characters.count)] {
            if unit == 10 {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column, offset: offset)
    }

    /// The index of the `}` closing the `{` at `open`, skipping strings and comments.
    static func matchingBrace(in characters: [UInt16], from open: Int) -> Int? {
        var depth = 0
        var index = open
        var quote: UInt16?
        while index < characters.count {
            let unit = characters[index]
            if let open = quote {
                if unit == 92 {  // backslash
                    index += 2
                    continue
                }
                if unit == open { quote = nil }
            } else if unit == 34 || unit == 39 || unit == 96 {
                quote = unit
            } else if unit == 47, index + 1 < characters.count, characters[index + 1] == 47 {
                while index < characters.count && characters[index] != 10 { index += 1 }
                continue
            } else if unit == 47, index + 1 < characters.count, characters[index + 1] == 42 {
                index += 2
                while index + 1 < characters.count && !(characters[index] == 42 && characters[index + 1] == 47) {
                    index += 1
                }
                index += 2
                continue
            } else if unit == 123 {
                depth += 1
            } else if unit == 125 {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    /// `key: fontWeights.bold,` → `key: "{fontWeights.bold}",`: a dotted name is a reference.
    static func referencesAsStrings(_ body: String) -> String {
        let pattern = #"(:\s*)([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(\s*[,}\n])"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return body }
        return regex.stringByReplacingMatches(
            in: body, range: NSRange(location: 0, length: (body as NSString).length), withTemplate: "$1\"{$2}\"$3")
    }

    /// The literal as tokens: every value that is not an object becomes `{"$value": …}`, typed by its path.
    static func tokens(from value: SourceJSONValue, path: [String]) -> SourceJSONValue {
        guard let members = value.members else {
            var token = [SourceJSONMember(key: "$value", keyPosition: value.position, value: value)]
            if let type = type(ofPath: path) {
                token.append(
                    SourceJSONMember(
                        key: "$type", keyPosition: value.position, value: .string(type, at: value.position)))
            }
            return .object(token, at: value.position)
        }
        return .object(
            members.map {
                SourceJSONMember(
                    key: $0.key, keyPosition: $0.keyPosition, value: tokens(from: $0.value, path: path + [$0.key]))
            }, at: value.position)
    }

    /// `fontWeight` for a path through `fontWeight`/`fontWeights`/`font-weight`, `fontFamily` likewise.
    static func type(ofPath path: [String]) -> String? {
        for component in path.reversed() {
            let words = TokenTypographyReader.words(component)
            let joined = words.joined()
            if joined.hasPrefix("fontweight") { return "fontWeight" }
            if joined.hasPrefix("fontfamil") { return "fontFamily" }
            if joined.hasPrefix("fontstyle") { return "fontStyle" }
        }
        return nil
    }
}

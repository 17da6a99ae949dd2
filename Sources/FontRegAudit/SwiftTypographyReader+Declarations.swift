import FontRegCore
import FontRegJSON

/// Pass 1 of the Swift reader: finds declarations, scopes, FontFamily types and inline calls.
extension SwiftTypographyReader {

    struct Scope {
        var name: String?
        var isFunction: Bool
        var familyType: String?
        var selfType: String?
    }

    mutating func collect(fileIndex: Int) {
        let tokens = files[fileIndex].tokens
        var scopes: [Scope] = []
        var pending: Scope?
        var i = 0
        func text(_ index: Int) -> String? { index < tokens.count ? tokens[index].text : nil }
        while i < tokens.count {
            let token = tokens[i]
            switch token.text {
            case _
            where token.kind == .keyword
                && ["struct", "class", "enum", "extension", "protocol", "actor"].contains(token.text):
                guard let nameIndex = (i + 1 < tokens.count) ? i + 1 : nil, tokens[nameIndex].kind == .identifier else {
                    i += 1
                    continue
                }
                var name = tokens[nameIndex].text
                var j = nameIndex + 1
                while text(j) == ".", j + 1 < tokens.count, tokens[j + 1].kind == .identifier {
                    name += "." + tokens[j + 1].text
                    j += 2
                }
                var conforms = false
                var selfType: String?
                while j < tokens.count, tokens[j].text != "{" {
                    if tokens[j].text == "FontFamily" || tokens[j].text == "FontRepresentable" { conforms = true }
                    if tokens[j].text == "Self", text(j + 1) == "==", j + 2 < tokens.count {
                        selfType = tokens[j + 2].text
                    }
                    j += 1
                }
                let isExtensionOfProtocol =
                    token.text == "extension" && (name == "FontFamily" || name == "FontRepresentable")
                let isType = token.text != "extension" && token.text != "protocol"
                if isType {
                    var type = familyTypes[name] ?? FamilyType(name: name, conforms: conforms)
                    type.conforms = type.conforms || conforms
                    familyTypes[name] = type
                }
                pending = Scope(
                    name: isExtensionOfProtocol ? nil : name, isFunction: false,
                    familyType: isType ? name : nil, selfType: selfType)
                i = j
            case _ where token.kind == .keyword && (token.text == "func" || token.text == "init"):
                if token.text == "init" && text(i - 1) == "." {
                    i += 1
                    continue
                }
                pending = Scope(name: nil, isFunction: true, familyType: nil, selfType: nil)
                i += 1
            case "{":
                if let scope = pending {
                    scopes.append(scope)
                    pending = nil
                } else {
                    scopes.append(
                        Scope(name: nil, isFunction: scopes.last?.isFunction ?? false, familyType: nil, selfType: nil))
                }
                i += 1
            case "}":
                if !scopes.isEmpty { scopes.removeLast() }
                i += 1
            case _ where token.kind == .keyword && (token.text == "let" || token.text == "var"):
                guard i + 1 < tokens.count, tokens[i + 1].kind == .identifier else {
                    i += 1
                    continue
                }
                let inFunction = scopes.contains(where: \.isFunction)
                let name = tokens[i + 1].text
                var j = i + 2
                var annotation: String?
                if text(j) == ":" {
                    var parts: [String] = []
                    j += 1
                    while j < tokens.count, tokens[j].text != "=", tokens[j].text != "{",
                        !(tokens[j].newlineBefore && !parts.isEmpty && tokens[j].text != ".")
                    {
                        parts.append(tokens[j].text)
                        j += 1
                    }
                    annotation = parts.joined()
                }
                var expression: Range<Int>?
                var resume: Int?
                if text(j) == "=" {
                    let end = statementEnd(tokens, from: j + 1)
                    expression = (j + 1)..<end
                } else if text(j) == "{" {
                    let close = matchingClose(tokens, open: j)
                    // The body's braces are skipped whole, so the scope stack stays balanced.
                    resume = close + 1
                    var start = j + 1
                    if text(start) == "return" { start += 1 }
                    if text(start) == "get", text(start + 1) == "{" {
                        start += 2
                        if text(start) == "return" { start += 1 }
                        expression = start..<statementEnd(tokens, from: start)
                    } else {
                        expression = start..<max(start, close)
                    }
                }
                if let expression {
                    let scopeNames = scopes.compactMap(\.name)
                    let declaration = Declaration(
                        name: name, scope: scopeNames.flatMap { $0.split(separator: ".").map(String.init) },
                        file: fileIndex, expression: expression, typeAnnotation: annotation,
                        selfType: scopes.last(where: { $0.selfType != nil })?.selfType, offset: tokens[i + 1].offset,
                        inFunction: inFunction)
                    declarations.append(declaration)
                    if let owner = scopes.last(where: { $0.familyType != nil })?.familyType, !inFunction,
                        scopes.last?.familyType == owner
                    {
                        if name == "familyName" { familyTypes[owner]?.familyNameDeclaration = declarations.count - 1 }
                        if name == "supportedWeights" {
                            familyTypes[owner]?.supportedWeightsDeclaration = declarations.count - 1
                        }
                    }
                    // Skip the expression so its tokens are not taken for new declarations,
                    // but keep looking inside it for inline Typography calls.
                    recordInlineCalls(tokens, fileIndex: fileIndex, range: expression, owned: !inFunction)
                    i = resume ?? expression.upperBound
                } else {
                    i = j
                }
            case "Typography" where text(i + 1) == "(" || (text(i + 1) == "." && text(i + 2) == "init"):
                let open = text(i + 1) == "(" ? i + 1 : i + 3
                let close = matchingClose(tokens, open: open)
                inlineCalls.append((fileIndex, i, close + 1))
                i = close + 1
            default:
                i += 1
            }
        }
    }

    /// Typography calls inside a declaration that is itself evaluated are not separate uses.
    mutating func recordInlineCalls(
        _ tokens: [SwiftSourceScanner.Token], fileIndex: Int, range: Range<Int>, owned: Bool
    ) {
        guard !owned else { return }
        var i = range.lowerBound
        while i < range.upperBound {
            if tokens[i].text == "Typography", i + 1 < tokens.count, tokens[i + 1].text == "(" {
                let close = matchingClose(tokens, open: i + 1)
                inlineCalls.append((fileIndex, i, close + 1))
                i = close + 1
            } else {
                i += 1
            }
        }
    }

    func matchingClose(_ tokens: [SwiftSourceScanner.Token], open: Int) -> Int {
        var depth = 0
        var i = open
        while i < tokens.count {
            switch tokens[i].text {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                depth -= 1
                if depth == 0 { return i }
            default: break
            }
            i += 1
        }
        return tokens.count
    }

    /// Where an expression starting at `start` ends: a line break at depth 0 not followed by `.`, or a closing brace.
    func statementEnd(_ tokens: [SwiftSourceScanner.Token], from start: Int) -> Int {
        var depth = 0
        var i = start
        while i < tokens.count {
            let token = tokens[i]
            if depth == 0 && i > start {
                if token.text == "}" || token.text == ";" { return i }
                if token.newlineBefore && token.text != "."
                    && !(tokens[i - 1].kind == .punctuation && tokens[i - 1].text != ")" && tokens[i - 1].text != "]")
                {
                    return i
                }
            }
            switch token.text {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                if depth == 0 { return i }
                depth -= 1
            default: break
            }
            i += 1
        }
        return tokens.count
    }

}

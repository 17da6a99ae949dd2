/// Pass 1 of the Swift reader: finds declarations, scopes, FontFamily types and inline calls.
extension SwiftTypographyReader {

    struct Scope {
        var name: String?
        var isFunction: Bool
        var familyType: String?
        var selfType: String?
    }

    /// The keywords that open a type or extension scope.
    static let typeKeywords: Set<String> = ["struct", "class", "enum", "extension", "protocol", "actor"]

    /// Walks one file's tokens: keeps the scope stack, and records each type, `let`/`var`
    /// declaration and inline `Typography(…)` call.
    mutating func collect(fileIndex: Int) {
        let tokens = files[fileIndex].tokens
        var scopes: [Scope] = []
        var pending: Scope?
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            let isKeyword = token.kind == .keyword
            if isKeyword && Self.typeKeywords.contains(token.text) {
                i = collectType(tokens, at: i, pending: &pending)
            } else if isKeyword && (token.text == "func" || token.text == "init") {
                // `.init(…)` is a call, not a declaration.
                if !(token.text == "init" && i > 0 && tokens[i - 1].text == ".") {
                    pending = Scope(name: nil, isFunction: true, familyType: nil, selfType: nil)
                }
                i += 1
            } else if token.text == "{" {
                scopes.append(
                    pending
                        ?? Scope(
                            name: nil, isFunction: scopes.last?.isFunction ?? false, familyType: nil, selfType: nil))
                pending = nil
                i += 1
            } else if token.text == "}" {
                if !scopes.isEmpty { scopes.removeLast() }
                i += 1
            } else if isKeyword && (token.text == "let" || token.text == "var") {
                i = collectVariable(tokens, at: i, fileIndex: fileIndex, scopes: scopes)
            } else if token.text == "Typography", let open = Self.typographyCallOpen(tokens, at: i) {
                let close = matchingClose(tokens, open: open)
                inlineCalls.append((fileIndex, i, close + 1))
                i = close + 1
            } else {
                i += 1
            }
        }
    }

    /// The index of the `(` of a `Typography(…)` or `Typography.init(…)` call at `i`, if it is one.
    static func typographyCallOpen(_ tokens: [SwiftSourceScanner.Token], at i: Int) -> Int? {
        func text(_ index: Int) -> String? { index < tokens.count ? tokens[index].text : nil }
        if text(i + 1) == "(" { return i + 1 }
        if text(i + 1) == ".", text(i + 2) == "init" { return i + 3 }
        return nil
    }

    /// A `struct`/`class`/`enum`/`extension`/`protocol`/`actor` header at `i`: records a type that
    /// conforms to `FontFamily` or `FontRepresentable`, and the scope its `{` will open.
    ///
    /// - Returns: the index to continue from (the header's `{`).
    mutating func collectType(_ tokens: [SwiftSourceScanner.Token], at i: Int, pending: inout Scope?) -> Int {
        func text(_ index: Int) -> String? { index < tokens.count ? tokens[index].text : nil }
        let keyword = tokens[i].text
        guard i + 1 < tokens.count, tokens[i + 1].kind == .identifier else { return i + 1 }
        var name = tokens[i + 1].text
        var j = i + 2
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
        let isExtensionOfProtocol = keyword == "extension" && (name == "FontFamily" || name == "FontRepresentable")
        let isType = keyword != "extension" && keyword != "protocol"
        if isType {
            var type = familyTypes[name] ?? FamilyType(name: name, conforms: conforms)
            type.conforms = type.conforms || conforms
            familyTypes[name] = type
        }
        pending = Scope(
            name: isExtensionOfProtocol ? nil : name, isFunction: false, familyType: isType ? name : nil,
            selfType: selfType)
        return j
    }

    /// A `let`/`var` at `i`: records the declaration with its type annotation and the token
    /// range of its value (an initial value, or a computed property's body).
    ///
    /// - Returns: the index to continue from (past the value).
    mutating func collectVariable(
        _ tokens: [SwiftSourceScanner.Token], at i: Int, fileIndex: Int, scopes: [Scope]
    ) -> Int {
        func text(_ index: Int) -> String? { index < tokens.count ? tokens[index].text : nil }
        guard i + 1 < tokens.count, tokens[i + 1].kind == .identifier else { return i + 1 }
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
        guard let (expression, resume) = valueRange(tokens, at: j) else { return j }
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
            if name == "supportedWeights" { familyTypes[owner]?.supportedWeightsDeclaration = declarations.count - 1 }
        }
        // Skip the expression so its tokens are not taken for new declarations,
        // but keep looking inside it for inline Typography calls.
        recordInlineCalls(tokens, fileIndex: fileIndex, range: expression, owned: !inFunction)
        return resume ?? expression.upperBound
    }

    /// The tokens of a declaration's value at `j`: after `=` up to the statement's end, or a
    /// `{ … }` body (a computed property or a `get` block), whose braces are then skipped whole
    /// so the scope stack stays balanced.
    ///
    /// - Returns: the value's range and, for a body, the index past its closing brace.
    func valueRange(_ tokens: [SwiftSourceScanner.Token], at j: Int) -> (Range<Int>, Int?)? {
        func text(_ index: Int) -> String? { index < tokens.count ? tokens[index].text : nil }
        if text(j) == "=" {
            return ((j + 1)..<statementEnd(tokens, from: j + 1), nil)
        }
        guard text(j) == "{" else { return nil }
        let close = matchingClose(tokens, open: j)
        var start = j + 1
        if text(start) == "return" { start += 1 }
        if text(start) == "get", text(start + 1) == "{" {
            start += 2
            if text(start) == "return" { start += 1 }
            return (start..<statementEnd(tokens, from: start), close + 1)
        }
        return (start..<max(start, close), close + 1)
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

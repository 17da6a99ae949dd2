import Foundation

/// Reads YMatterType `Typography` declarations from Swift source text, without a Swift parser.
///
/// It finds `let`/`var` declarations (stored or computed) in types and extensions, evaluates
/// the ones that build a `Typography` — directly (`Typography(familyName:fontWeight:…)`,
/// `Typography(fontFamily: .x, …)`) or by deriving from another style (`.bold`, `.regular`,
/// `.fontWeight(.medium)`) — and follows `fontFamily:` to a `DefaultFontFamily(familyName:)`
/// or to a custom type conforming to `FontFamily`/`FontRepresentable` whose `familyName` and
/// `supportedWeights` it reads. All files given are read together, so a family declared in one
/// file can be used in another. Weight names are Apple's; `.heavy` is 800.
struct SwiftTypographyReader {
    struct SourceFile {
        var path: String
        var text: String
        var tokens: [SwiftSourceScanner.Token]
    }

    struct Declaration {
        var name: String
        var scope: [String]
        var file: Int
        /// Token indices of the initializer or computed body.
        var expression: Range<Int>
        var typeAnnotation: String?
        var selfType: String?
        var offset: Int
        var inFunction: Bool
        var qualifiedName: String { (scope + [name]).joined(separator: ".") }
    }

    struct FamilyValue: Hashable {
        var stack: [String]
        var supportedWeights: [FontWeight]?
        var style: FontStyle?
    }

    struct TypographyValue: Hashable {
        var family: FamilyValue
        var weight: FontWeight
        var style: FontStyle
    }

    enum Value {
        case typography(TypographyValue)
        case family(FamilyValue)
        case other
    }

    struct FamilyType {
        var name: String
        var conforms: Bool
        var familyNameDeclaration: Int?
        var supportedWeightsDeclaration: Int?
    }

    private var files: [SourceFile] = []
    private var declarations: [Declaration] = []
    private var familyTypes: [String: FamilyType] = [:]
    private var inlineCalls: [(file: Int, start: Int, end: Int)] = []
    private var cache: [Int: Value] = [:]
    private var evaluating: [Int] = []
    private var notes: [String] = []

    static let systemFamilyNames: Set<String> = ["systemFamily", "system", "SystemFontFamily", "systemFont"]

    /// Reads the given Swift files together.
    ///
    /// - Parameter sources: path and text of each file.
    /// - Returns: one document per run, listing every style in file order.
    /// - Throws: ``AuditInputError`` for an unknown weight, an unresolvable family, a circular derivation
    ///   or an unterminated string or comment.
    static func read(sources: [(path: String, text: String)]) throws(AuditInputError) -> TypographyDocument {
        var reader = SwiftTypographyReader()
        for source in sources {
            let (tokens, unterminated) = SwiftSourceScanner.tokenize(source.text)
            if let unterminated {
                throw .invalidStyle(
                    file: source.path, location: "source", position: SwiftSourceScanner.position(of: unterminated, in: source.text),
                    reason: "unterminated string literal or comment; the file does not compile as Swift")
            }
            reader.files.append(SourceFile(path: source.path, text: source.text, tokens: tokens))
            reader.collect(fileIndex: reader.files.count - 1)
        }
        return try reader.evaluateAll(label: sources.count == 1 ? sources[0].path : "\(sources.count) Swift files")
    }

    // MARK: - Collecting declarations

    private struct Scope {
        var name: String?
        var isFunction: Bool
        var familyType: String?
        var selfType: String?
    }

    private mutating func collect(fileIndex: Int) {
        let tokens = files[fileIndex].tokens
        var scopes: [Scope] = []
        var pending: Scope?
        var i = 0
        func text(_ index: Int) -> String? { index < tokens.count ? tokens[index].text : nil }
        while i < tokens.count {
            let token = tokens[i]
            switch token.text {
            case _ where token.kind == .keyword && ["struct", "class", "enum", "extension", "protocol", "actor"].contains(token.text):
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
                    if tokens[j].text == "Self", text(j + 1) == "==", j + 2 < tokens.count { selfType = tokens[j + 2].text }
                    j += 1
                }
                let isExtensionOfProtocol = token.text == "extension" && (name == "FontFamily" || name == "FontRepresentable")
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
                    scopes.append(Scope(name: nil, isFunction: scopes.last?.isFunction ?? false, familyType: nil, selfType: nil))
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
                    while j < tokens.count, tokens[j].text != "=", tokens[j].text != "{", !(tokens[j].newlineBefore && !parts.isEmpty && tokens[j].text != ".") {
                        parts.append(tokens[j].text)
                        j += 1
                    }
                    annotation = parts.joined()
                }
                var expression: Range<Int>?
                if text(j) == "=" {
                    let end = statementEnd(tokens, from: j + 1)
                    expression = (j + 1)..<end
                } else if text(j) == "{" {
                    let close = matchingClose(tokens, open: j)
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
                        if name == "supportedWeights" { familyTypes[owner]?.supportedWeightsDeclaration = declarations.count - 1 }
                    }
                    // Skip the expression so its tokens are not taken for new declarations,
                    // but keep looking inside it for inline Typography calls.
                    recordInlineCalls(tokens, fileIndex: fileIndex, range: expression, owned: !inFunction)
                    i = expression.upperBound
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
    private mutating func recordInlineCalls(_ tokens: [SwiftSourceScanner.Token], fileIndex: Int, range: Range<Int>, owned: Bool) {
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

    private func matchingClose(_ tokens: [SwiftSourceScanner.Token], open: Int) -> Int {
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
    private func statementEnd(_ tokens: [SwiftSourceScanner.Token], from start: Int) -> Int {
        var depth = 0
        var i = start
        while i < tokens.count {
            let token = tokens[i]
            if depth == 0 && i > start {
                if token.text == "}" || token.text == ";" { return i }
                if token.newlineBefore && token.text != "." && !(tokens[i - 1].kind == .punctuation && tokens[i - 1].text != ")" && tokens[i - 1].text != "]") {
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

    // MARK: - Evaluating

    private mutating func evaluateAll(label: String) throws(AuditInputError) -> TypographyDocument {
        var uses: [TypographyUse] = []
        var seenCalls = Set<String>()
        for (index, declaration) in declarations.enumerated() where !declaration.inFunction {
            let value = try evaluate(declaration: index)
            guard case .typography(let typography) = value else { continue }
            let file = files[declaration.file]
            uses.append(use(typography, file: file.path, name: declaration.qualifiedName, offset: declaration.offset, text: file.text))
            let range = declaration.expression
            seenCalls.insert("\(declaration.file):\(range.lowerBound)")
        }
        for call in inlineCalls {
            let file = files[call.file]
            let tokens = Array(file.tokens[call.start..<min(call.end, file.tokens.count)])
            let position = SwiftSourceScanner.position(of: file.tokens[call.start].offset, in: file.text)
            let covered = declarations.contains { $0.file == call.file && !$0.inFunction && $0.expression.contains(call.start) }
            if covered { continue }
            do {
                if case .typography(let typography) = try evaluate(tokens: tokens, file: call.file, declaration: nil) {
                    uses.append(use(typography, file: file.path, name: "Typography(…) at line \(position.line)", offset: file.tokens[call.start].offset, text: file.text))
                }
            } catch {
                notes.append("\(file.path):\(position.line):\(position.column): skipped a Typography(…) whose family or weight is not a literal (\(error))")
            }
        }
        if uses.isEmpty {
            notes.append("\(label): no YMatterType Typography declarations found")
        }
        return TypographyDocument(file: label, format: .swift, uses: uses, notes: notes)
    }

    private func use(_ value: TypographyValue, file: String, name: String, offset: Int, text: String) -> TypographyUse {
        TypographyUse(
            familyStack: value.family.stack, weight: value.weight, style: value.style,
            origin: UseOrigin(file: file, name: name, position: SwiftSourceScanner.position(of: offset, in: text)),
            supportedWeights: value.family.supportedWeights)
    }

    private mutating func evaluate(declaration index: Int) throws(AuditInputError) -> Value {
        if let cached = cache[index] { return cached }
        if let start = evaluating.firstIndex(of: index) {
            let chain = (evaluating[start...] + [index]).map { declarations[$0].qualifiedName }
            let declaration = declarations[index]
            let file = files[declaration.file]
            throw .circularReference(
                file: file.path, chain: Array(chain),
                position: SwiftSourceScanner.position(of: declaration.offset, in: file.text))
        }
        evaluating.append(index)
        defer { evaluating.removeLast() }
        let declaration = declarations[index]
        let tokens = Array(files[declaration.file].tokens[declaration.expression])
        let value = try evaluate(tokens: tokens, file: declaration.file, declaration: declaration)
        cache[index] = value
        return value
    }

    private func error(_ reason: String, file: Int, at token: SwiftSourceScanner.Token?, location: String) -> AuditInputError {
        let source = files[file]
        let position = token.map { SwiftSourceScanner.position(of: $0.offset, in: source.text) }
        return .invalidStyle(file: source.path, location: location, position: position, reason: reason)
    }

    private struct Component {
        var name: String
        var arguments: [SwiftSourceScanner.Token]?
        var token: SwiftSourceScanner.Token
    }

    /// Splits `a.b(x).c` into components; returns nil when the expression is not a member chain.
    private func components(_ tokens: [SwiftSourceScanner.Token]) -> [Component]? {
        var result: [Component] = []
        var i = 0
        if i < tokens.count, tokens[i].text == "." { i += 1 }
        while i < tokens.count {
            guard tokens[i].kind == .identifier || tokens[i].text == "init" || tokens[i].text == "Self" else { return nil }
            var component = Component(name: tokens[i].text, arguments: nil, token: tokens[i])
            i += 1
            if i < tokens.count, tokens[i].text == "(" {
                let close = matchingClose(tokens, open: i)
                component.arguments = Array(tokens[(i + 1)..<min(close, tokens.count)])
                i = close + 1
            }
            result.append(component)
            if i < tokens.count {
                // Anything but a member access (an operator, a closure) is not a plain chain.
                guard tokens[i].text == "." else { return nil }
                i += 1
            }
        }
        return result
    }

    private mutating func evaluate(tokens: [SwiftSourceScanner.Token], file: Int, declaration: Declaration?) throws(AuditInputError) -> Value {
        guard let parts = components(tokens), !parts.isEmpty else { return .other }
        let location = declaration?.qualifiedName ?? "Typography(…)"
        var value: Value?
        var k = 0
        while k < parts.count, value == nil {
            let part = parts[k]
            if let arguments = part.arguments {
                var typeName = part.name
                if part.name == "init" || part.name == "Self" {
                    typeName = k > 0 ? parts[k - 1].name : (declaration?.typeAnnotation ?? "")
                    if typeName == "Self" { typeName = declaration?.selfType ?? typeName }
                }
                value = try construct(typeName: typeName, arguments: arguments, file: file, token: part.token, location: location)
                if value == nil { return .other }
            } else if SwiftTypographyReader.systemFamilyNames.contains(part.name) {
                value = .family(FamilyValue(stack: ["system-ui"], supportedWeights: nil, style: nil))
            } else if let found = lookUp(name: part.name, qualifiers: parts[..<k].map(\.name), near: declaration) {
                value = try evaluate(declaration: found)
            } else if part.name.first?.isUppercase == true {
                k += 1
                continue
            } else {
                // Only a family argument must resolve; other code in the files is not ours to judge.
                if declaration == nil {
                    throw error(
                        "cannot find the declaration of '\(part.name)'; pass the Swift file that declares it too",
                        file: file, at: part.token, location: location)
                }
                return .other
            }
            k += 1
        }
        guard var current = value else { return .other }
        for part in parts[k...] {
            guard case .typography(var typography) = current else { break }
            switch part.name {
            case "bold": typography.weight = .bold
            case "regular": typography.weight = .regular
            case "italic": typography.style = .italic
            case "fontWeight":
                guard let arguments = part.arguments, let weightToken = arguments.last(where: { $0.kind == .identifier }) else { break }
                typography.weight = try weight(weightToken, file: file, location: "\(location).fontWeight(…)")
            default: break  // fontSize, lineHeight, kerning, textCase, …: no effect on the face
            }
            current = .typography(typography)
        }
        return current
    }

    private func lookUp(name: String, qualifiers: [String], near declaration: Declaration?) -> Int? {
        let candidates = declarations.indices.filter { declarations[$0].name == name && !declarations[$0].inFunction }
        guard !candidates.isEmpty else { return nil }
        let qualified = qualifiers.filter { $0 != "Self" && $0 != "FontFamily" && $0 != "FontRepresentable" }
        if !qualified.isEmpty {
            if let match = candidates.first(where: { declarations[$0].scope.suffix(qualified.count).elementsEqual(qualified) }) {
                return match
            }
        }
        if let declaration {
            // Nearest enclosing scope first.
            for length in stride(from: declaration.scope.count, through: 0, by: -1) {
                let prefix = Array(declaration.scope.prefix(length))
                if let match = candidates.first(where: { declarations[$0].scope == prefix }) { return match }
            }
        }
        return candidates.first
    }

    private func arguments(_ tokens: [SwiftSourceScanner.Token]) -> [(label: String?, tokens: [SwiftSourceScanner.Token])] {
        var result: [(String?, [SwiftSourceScanner.Token])] = []
        var current: [SwiftSourceScanner.Token] = []
        var depth = 0
        for token in tokens {
            switch token.text {
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            default: break
            }
            if token.text == "," && depth == 0 {
                result.append(split(current))
                current = []
            } else {
                current.append(token)
            }
        }
        if !current.isEmpty { result.append(split(current)) }
        return result
    }

    private func split(_ tokens: [SwiftSourceScanner.Token]) -> (String?, [SwiftSourceScanner.Token]) {
        if tokens.count >= 2, tokens[0].kind == .identifier || tokens[0].kind == .keyword, tokens[1].text == ":" {
            return (tokens[0].text, Array(tokens.dropFirst(2)))
        }
        return (nil, tokens)
    }

    private mutating func construct(typeName: String, arguments tokens: [SwiftSourceScanner.Token], file: Int, token: SwiftSourceScanner.Token, location: String) throws(AuditInputError) -> Value? {
        let arguments = arguments(tokens)
        func argument(_ label: String) -> [SwiftSourceScanner.Token]? { arguments.first(where: { $0.label == label })?.tokens }
        let bareType = typeName.split(separator: ".").last.map(String.init) ?? typeName
        switch bareType {
        case "Typography":
            var family: FamilyValue
            if let name = argument("familyName") {
                guard let literal = name.first, literal.kind == .string, name.count == 1 else {
                    throw error("familyName must be a string literal", file: file, at: name.first ?? token, location: location)
                }
                family = FamilyValue(stack: [literal.text], supportedWeights: nil, style: nil)
            } else if let expression = argument("fontFamily") {
                guard case .family(let found) = try evaluate(tokens: expression, file: file, declaration: nil) else {
                    throw error(
                        "cannot tell which family fontFamily: \(expression.map(\.text).joined()) is; declare it as DefaultFontFamily(familyName:) or a FontFamily type in the files given",
                        file: file, at: expression.first ?? token, location: location)
                }
                family = found
            } else {
                throw error("Typography(…) has neither familyName: nor fontFamily:", file: file, at: token, location: location)
            }
            guard let weightTokens = argument("fontWeight"), let weightToken = weightTokens.last(where: { $0.kind == .identifier }) else {
                throw error("Typography(…) has no fontWeight: argument", file: file, at: token, location: location)
            }
            let weight = try weight(weightToken, file: file, location: "\(location).fontWeight")
            var style = family.style ?? .normal
            if let styleTokens = argument("fontStyle"), let styleToken = styleTokens.last {
                style = styleToken.text == "italic" ? .italic : .normal
            }
            if family.style == nil { family.style = nil }
            return .typography(TypographyValue(family: family, weight: weight, style: style))
        case "DefaultFontFamily":
            guard let name = argument("familyName")?.first, name.kind == .string else {
                throw error("DefaultFontFamily(…) needs familyName: \"…\"", file: file, at: token, location: location)
            }
            let style: FontStyle? = argument("fontStyle")?.last?.text == "italic" ? .italic : nil
            return .family(FamilyValue(stack: [name.text], supportedWeights: nil, style: style))
        default:
            if SwiftTypographyReader.systemFamilyNames.contains(bareType) {
                return .family(FamilyValue(stack: ["system-ui"], supportedWeights: nil, style: nil))
            }
            guard let type = familyTypes[bareType], type.conforms || type.familyNameDeclaration != nil else { return nil }
            var name: String?
            if let literal = argument("familyName")?.first, literal.kind == .string { name = literal.text }
            if name == nil, let index = type.familyNameDeclaration {
                let declaration = declarations[index]
                name = files[declaration.file].tokens[declaration.expression].first(where: { $0.kind == .string })?.text
            }
            guard let name else {
                throw error(
                    "the FontFamily type \(bareType) has no familyName this reader can see; give it `let familyName = \"…\"`",
                    file: file, at: token, location: location)
            }
            var supported: [FontWeight]?
            if let index = type.supportedWeightsDeclaration {
                let declaration = declarations[index]
                var weights: [FontWeight] = []
                let expression = Array(files[declaration.file].tokens[declaration.expression])
                for (position, candidate) in expression.enumerated() where candidate.kind == .identifier
                    && position > 0 && expression[position - 1].text == "."
                {
                    if candidate.text == "allCases" {
                        weights = WeightVocabulary.apple.compactMap { FontWeight($0.weight) }
                        break
                    }
                    weights.append(try weight(candidate, file: declaration.file, location: "\(bareType).supportedWeights"))
                }
                supported = weights.sorted()
            }
            return .family(FamilyValue(stack: [name], supportedWeights: supported, style: nil))
        }
    }

    private func weight(_ token: SwiftSourceScanner.Token, file: Int, location: String) throws(AuditInputError) -> FontWeight {
        if let weight = WeightVocabulary.appleWeight(token.text) { return weight }
        let source = files[file]
        throw .unknownWeight(
            file: source.path, location: location, value: "." + token.text,
            position: SwiftSourceScanner.position(of: token.offset, in: source.text),
            accepted: WeightVocabulary.apple.map { ".\($0.name) (\($0.weight))" })
    }
}

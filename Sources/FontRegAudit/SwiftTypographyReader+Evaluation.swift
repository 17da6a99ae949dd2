import FontRegCore

/// Pass 2 of the Swift reader: evaluates declarations to typographies and families.
extension SwiftTypographyReader {
    mutating func evaluate(declaration index: Int) throws(AuditInputError) -> Value {
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

    func error(_ reason: String, file: Int, at token: SwiftSourceScanner.Token?, location: String) -> AuditInputError {
        let source = files[file]
        let position = token.map { SwiftSourceScanner.position(of: $0.offset, in: source.text) }
        return .invalidStyle(file: source.path, location: location, position: position, reason: reason)
    }

    struct Component {
        var name: String
        var arguments: [SwiftSourceScanner.Token]?
        var token: SwiftSourceScanner.Token
    }

    /// Splits `a.b(x).c` into components; returns nil when the expression is not a member chain.
    func components(_ tokens: [SwiftSourceScanner.Token]) -> [Component]? {
        var result: [Component] = []
        var i = 0
        if i < tokens.count, tokens[i].text == "." { i += 1 }
        while i < tokens.count {
            guard tokens[i].kind == .identifier || tokens[i].text == "init" || tokens[i].text == "Self" else {
                return nil
            }
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

    mutating func evaluate(tokens: [SwiftSourceScanner.Token], file: Int, declaration: Declaration?)
        throws(AuditInputError) -> Value
    {
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
                value = try construct(
                    typeName: typeName, arguments: arguments, file: file, token: part.token, location: location)
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
                guard let arguments = part.arguments,
                    let weightToken = arguments.last(where: { $0.kind == .identifier })
                else { break }
                typography.weight = try weight(weightToken, file: file, location: "\(location).fontWeight(…)")
            case "fontSize":
                if let size = part.arguments.flatMap(Self.positiveNumber) { typography.size = size }
            case "lineHeight":
                if let height = part.arguments.flatMap(Self.positiveNumber) { typography.lineHeight = height }
            default: break  // kerning, textCase, …: no effect on the face or its line
            }
            current = .typography(typography)
        }
        return current
    }

    func lookUp(name: String, qualifiers: [String], near declaration: Declaration?) -> Int? {
        let candidates = declarations.indices.filter { declarations[$0].name == name && !declarations[$0].inFunction }
        guard !candidates.isEmpty else { return nil }
        let qualified = qualifiers.filter { $0 != "Self" && $0 != "FontFamily" && $0 != "FontRepresentable" }
        if !qualified.isEmpty {
            if let match = candidates.first(where: {
                declarations[$0].scope.suffix(qualified.count).elementsEqual(qualified)
            }) {
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

    func arguments(_ tokens: [SwiftSourceScanner.Token]) -> [(label: String?, tokens: [SwiftSourceScanner.Token])] {
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

    func split(_ tokens: [SwiftSourceScanner.Token]) -> (String?, [SwiftSourceScanner.Token]) {
        if tokens.count >= 2, tokens[0].kind == .identifier || tokens[0].kind == .keyword, tokens[1].text == ":" {
            return (tokens[0].text, Array(tokens.dropFirst(2)))
        }
        return (nil, tokens)
    }

    /// Where a constructor call is and what it was given, for the parts of ``construct(typeName:arguments:file:token:location:)``.
    struct Call {
        /// The labelled arguments.
        var arguments: [(label: String?, tokens: [SwiftSourceScanner.Token])]
        /// The file's index.
        var file: Int
        /// The token errors point at.
        var token: SwiftSourceScanner.Token
        /// The declaration's name, for messages.
        var location: String

        /// The tokens of the argument labelled `label`.
        func argument(_ label: String) -> [SwiftSourceScanner.Token]? {
            arguments.first(where: { $0.label == label })?.tokens
        }
    }

    /// Evaluates a constructor call: `Typography(…)`, `DefaultFontFamily(…)`, a system family or a custom `FontFamily` type.
    ///
    /// - Returns: `nil` for a type the reader does not model.
    mutating func construct(
        typeName: String, arguments tokens: [SwiftSourceScanner.Token], file: Int, token: SwiftSourceScanner.Token,
        location: String
    ) throws(AuditInputError) -> Value? {
        let call = Call(arguments: arguments(tokens), file: file, token: token, location: location)
        let bareType = typeName.split(separator: ".").last.map(String.init) ?? typeName
        switch bareType {
        case "Typography":
            return try constructTypography(call)
        case "DefaultFontFamily":
            guard let name = call.argument("familyName")?.first, name.kind == .string else {
                throw error("DefaultFontFamily(…) needs familyName: \"…\"", file: file, at: token, location: location)
            }
            let style: FontStyle? = call.argument("fontStyle")?.last?.text == "italic" ? .italic : nil
            return .family(FamilyValue(stack: [name.text], supportedWeights: nil, style: style))
        default:
            if SwiftTypographyReader.systemFamilyNames.contains(bareType) {
                return .family(FamilyValue(stack: ["system-ui"], supportedWeights: nil, style: nil))
            }
            return try constructCustomFamily(bareType, call)
        }
    }

    /// `Typography(familyName:|fontFamily:, fontWeight:, fontStyle:)`.
    private mutating func constructTypography(_ call: Call) throws(AuditInputError) -> Value {
        var family: FamilyValue
        if let name = call.argument("familyName") {
            guard let literal = name.first, literal.kind == .string, name.count == 1 else {
                throw error(
                    "familyName must be a string literal", file: call.file, at: name.first ?? call.token,
                    location: call.location)
            }
            family = FamilyValue(stack: [literal.text], supportedWeights: nil, style: nil)
        } else if let expression = call.argument("fontFamily") {
            guard case .family(let found) = try evaluate(tokens: expression, file: call.file, declaration: nil) else {
                throw error(
                    "cannot tell which family fontFamily: \(expression.map(\.text).joined()) is; declare it as DefaultFontFamily(familyName:) or a FontFamily type in the files given",
                    file: call.file, at: expression.first ?? call.token, location: call.location)
            }
            family = found
        } else {
            throw error(
                "Typography(…) has neither familyName: nor fontFamily:", file: call.file, at: call.token,
                location: call.location)
        }
        guard let weightTokens = call.argument("fontWeight"),
            let weightToken = weightTokens.last(where: { $0.kind == .identifier })
        else {
            throw error(
                "Typography(…) has no fontWeight: argument", file: call.file, at: call.token, location: call.location)
        }
        let weight = try weight(weightToken, file: call.file, location: "\(call.location).fontWeight")
        var style = family.style ?? .normal
        if let styleTokens = call.argument("fontStyle"), let styleToken = styleTokens.last {
            style = styleToken.text == "italic" ? .italic : .normal
        }
        if family.style == nil { family.style = nil }
        var value = TypographyValue(family: family, weight: weight, style: style)
        value.size = call.argument("fontSize").flatMap(Self.positiveNumber)
        value.lineHeight = call.argument("lineHeight").flatMap(Self.positiveNumber)
        return .typography(value)
    }

    /// A positive number literal (`16`, `24.5`); `nil` for any other expression (a constant, a sum).
    static func positiveNumber(_ tokens: [SwiftSourceScanner.Token]) -> Double? {
        guard tokens.count == 1, tokens[0].kind == .number,
            let value = Double(String(tokens[0].text.filter { $0 != "_" })), value > 0, value.isFinite
        else { return nil }
        return value
    }

    /// A custom `FontFamily` type: its `familyName` and `supportedWeights` as declared in the files.
    private func constructCustomFamily(_ bareType: String, _ call: Call) throws(AuditInputError) -> Value? {
        guard let type = familyTypes[bareType], type.conforms || type.familyNameDeclaration != nil else {
            return nil
        }
        var name: String?
        if let literal = call.argument("familyName")?.first, literal.kind == .string { name = literal.text }
        if name == nil, let index = type.familyNameDeclaration {
            let declaration = declarations[index]
            name = files[declaration.file].tokens[declaration.expression].first(where: { $0.kind == .string })?.text
        }
        guard let name else {
            throw error(
                "the FontFamily type \(bareType) has no familyName this reader can see; give it `let familyName = \"…\"`",
                file: call.file, at: call.token, location: call.location)
        }
        let supported = try type.supportedWeightsDeclaration.map { index throws(AuditInputError) in
            try supportedWeights(declaredAt: index, typeName: bareType)
        }
        return .family(FamilyValue(stack: [name], supportedWeights: supported, style: nil))
    }

    /// The weights a `supportedWeights` declaration lists (`.allCases` is all of Apple's nine), ascending.
    private func supportedWeights(declaredAt index: Int, typeName: String) throws(AuditInputError) -> [FontWeight] {
        let declaration = declarations[index]
        var weights: [FontWeight] = []
        let expression = Array(files[declaration.file].tokens[declaration.expression])
        for (position, candidate) in expression.enumerated()
        where candidate.kind == .identifier && position > 0 && expression[position - 1].text == "." {
            if candidate.text == "allCases" {
                weights = WeightVocabulary.apple.compactMap { FontWeight($0.weight) }
                break
            }
            weights.append(try weight(candidate, file: declaration.file, location: "\(typeName).supportedWeights"))
        }
        return weights.sorted()
    }

    func weight(_ token: SwiftSourceScanner.Token, file: Int, location: String) throws(AuditInputError) -> FontWeight {
        if let weight = WeightVocabulary.appleWeight(token.text) { return weight }
        let source = files[file]
        throw .unknownWeight(
            file: source.path, location: location, value: "." + token.text,
            position: SwiftSourceScanner.position(of: token.offset, in: source.text),
            accepted: WeightVocabulary.apple.map { ".\($0.name) (\($0.weight))" })
    }
}

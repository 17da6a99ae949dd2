import FontRegJSON
import Foundation

/// The tokens of DTCG or Tokens Studio files, flattened to dotted paths, with reference resolution.
///
/// Both formats nest groups of tokens; a token is the object that holds the value. `$type` and
/// `$deprecated` set on a group apply to everything below it unless a token says otherwise.
/// Several files merge into one tree before references resolve, as Style Dictionary's `source`
/// does: a token of a later file replaces one of the same path, and `{fontStack.sansSerif}` in one
/// file finds the token defined in another.
struct TokenTree {
    /// One token: its path, raw value, effective type and where it is.
    struct Token {
        var path: String
        var value: SourceJSONValue
        var type: String?
        var deprecated: Bool
        var position: SourcePosition
        /// The file the token is written in.
        var file: String
    }

    /// Which spelling of the keys to read.
    enum Dialect {
        /// `$value`, `$type`, `$deprecated` only.
        case dtcg
        /// `$value`/`$type` or `value`/`type`; token sets at the top level are transparent to references.
        case tokensStudio
    }

    /// The files merged, as one name for notes (`a.json5, b.json5`).
    let file: String
    /// The files merged, in the order given.
    let files: [String]
    /// Every file's parsed root, for JSON Pointer references (which point inside their own file).
    private let roots: [String: SourceJSONValue]
    private(set) var tokens: [String: Token] = [:]
    /// Token paths in file order.
    private(set) var order: [String] = []
    /// For Tokens Studio: the path inside its set → the full path, so `{fontWeights.body}` finds `global.fontWeights.body`.
    private var setRelative: [String: String] = [:]
    private let dialect: Dialect

    /// Reads one file's tokens.
    init(root: SourceJSONValue, file: String, dialect: Dialect) throws(AuditInputError) {
        try self.init(sources: [(root, file)], dialect: dialect)
    }

    /// Merges several files' tokens into one tree, later files replacing tokens of the same path.
    init(sources: [(root: SourceJSONValue, file: String)], dialect: Dialect) throws(AuditInputError) {
        self.file = sources.map(\.file).joined(separator: ", ")
        self.files = sources.map(\.file)
        self.dialect = dialect
        var roots: [String: SourceJSONValue] = [:]
        for source in sources { roots[source.file] = source.root }
        self.roots = roots
        for source in sources {
            guard source.root.members != nil else {
                throw .invalidStyle(
                    file: source.file, location: "top level", position: source.root.position,
                    reason: "expected an object of token groups, found \(source.root.kindName)")
            }
            collect(source.root, path: [], type: nil, deprecated: false, file: source.file)
        }
    }

    /// The strings of a top-level member (`$locales`, `$samples`) over every merged file, in order, without repeats:
    /// a string or an array of strings.
    func topLevelStrings(_ key: String) -> [String] {
        var result: [String] = []
        for file in roots.keys.sorted() {
            guard let value = roots[file]?[key] else { continue }
            let values: [SourceJSONValue]
            if case .array(let items, _) = value { values = items } else { values = [value] }
            for case .string(let text, _) in values where !text.isEmpty && !result.contains(text) {
                result.append(text)
            }
        }
        return result
    }

    /// The file a token is written in (the first merged file for a path that is not a token).
    func file(of tokenPath: String) -> String {
        token(at: tokenPath)?.file ?? roots.keys.sorted().first ?? file
    }

    private func valueOf(_ node: SourceJSONValue) -> SourceJSONValue? {
        if let value = node["$value"] { return value }
        if dialect == .tokensStudio, let value = node["value"],
            node["type"] != nil || node["description"] != nil || node["$schema"] != nil
        {
            return value
        }
        if dialect == .tokensStudio, let value = node["value"], value.members == nil { return value }
        return nil
    }

    private func typeOf(_ node: SourceJSONValue) -> String? {
        if let type = node["$type"]?.stringValue { return type }
        guard dialect == .tokensStudio else { return nil }
        if let type = node["type"]?.stringValue { return type }
        return node["$schema"]?.stringValue.flatMap(TokenTree.schemaType)
    }

    /// The token type a `$schema` URL names (`…/token-types/font-weight.json` → `fontWeight`);
    /// `nil` for `alias.json`, whose type is the type of the token it refers to.
    static func schemaType(_ url: String) -> String? {
        var name = Substring(url.split(separator: "/").last ?? "")
        if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let first = words.first, first != "alias" else { return nil }
        return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private func isDeprecated(_ node: SourceJSONValue) -> Bool? {
        // Style Dictionary systems (Adobe Spectrum) write `deprecated: true` without the `$`.
        guard let flag = node["$deprecated"] ?? (dialect == .tokensStudio ? node["deprecated"] : nil) else {
            return nil
        }
        if let bool = flag.boolValue { return bool }
        return flag.stringValue != nil  // a string explains the deprecation
    }

    private mutating func collect(
        _ node: SourceJSONValue, path: [String], type: String?, deprecated: Bool, file: String
    ) {
        guard let members = node.members else { return }
        let type = typeOf(node) ?? type
        let deprecated = isDeprecated(node) ?? deprecated
        for member in members {
            // `$root` (DTCG 2025.10) is the token a group itself stands for; other `$` keys are properties.
            if member.key.hasPrefix("$") && member.key != "$root" { continue }
            let child = member.value
            guard child.members != nil else { continue }
            let childPath = path + [member.key]
            if let value = valueOf(child) {
                let dotted = childPath.joined(separator: ".")
                tokens[dotted] = Token(
                    path: dotted, value: value, type: typeOf(child) ?? type,
                    deprecated: isDeprecated(child) ?? deprecated, position: member.keyPosition, file: file)
                if !order.contains(dotted) { order.append(dotted) }
                if dialect == .tokensStudio, childPath.count > 1 {
                    let relative = childPath.dropFirst().joined(separator: ".")
                    if setRelative[relative] == nil { setRelative[relative] = dotted }
                }
            } else {
                collect(child, path: childPath, type: type, deprecated: deprecated, file: file)
            }
        }
    }

    /// The token at a dotted path (for Tokens Studio also a path inside a token set).
    func token(at path: String) -> Token? {
        if let token = tokens[path] { return token }
        if let full = setRelative[path] { return tokens[full] }
        return nil
    }

    /// The token's type: its own or inherited `$type`, else (DTCG 2025.10) the type of the token its
    /// value refers to, followed along the chain.
    func effectiveType(of token: Token) -> String? {
        var current = token
        var seen: Set<String> = [token.path]
        while current.type == nil, let reference = TokenTree.referencePath(current.value),
            let next = self.token(at: reference),
            seen.insert(next.path).inserted
        {
            current = next
        }
        return current.type
    }

    /// If `value` is a whole-value reference (`"{a.b}"`), its dotted path.
    static func referencePath(_ value: SourceJSONValue) -> String? {
        guard let text = value.stringValue?.trimmingCharacters(in: .whitespaces),
            text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2
        else { return nil }
        let inner = text.dropFirst().dropLast()
        guard !inner.contains("{"), !inner.contains("}") else { return nil }
        return String(inner)
    }

    /// If `value` is a JSON Pointer reference object (`{"$ref": "#/…"}`), the pointer text.
    static func pointerReference(_ value: SourceJSONValue) -> String? {
        guard let members = value.members, members.count == 1, members[0].key == "$ref" else { return nil }
        return members[0].value.stringValue
    }

    /// Follows references until a value that is not a reference.
    ///
    /// - Parameters:
    ///   - value: the value as written.
    ///   - tokenPath: the token the value belongs to, for messages and cycle detection.
    ///   - visited: token paths whose value was reached along the way (appended to).
    /// - Throws: ``AuditInputError/brokenReference`` or ``AuditInputError/circularReference``.
    func resolve(_ value: SourceJSONValue, in tokenPath: String, visited: inout [String]) throws(AuditInputError)
        -> SourceJSONValue
    {
        var chain = [tokenPath]
        var current = value
        while true {
            if let reference = TokenTree.referencePath(current) {
                let target = try lookUp(reference: reference, from: chain.last!, position: current.position)
                if chain.contains(target.key) {
                    throw .circularReference(
                        file: file(of: chain.last!), chain: chain + [target.key], position: current.position)
                }
                chain.append(target.key)
                visited.append(target.key)
                current = target.value
            } else if let pointerText = TokenTree.pointerReference(current) {
                guard let pointer = SourceJSONPointer(pointerText) else {
                    throw .invalidStyle(
                        file: file(of: chain.last!), location: chain.last!, position: current.position,
                        reason:
                            "\"$ref\": \"\(pointerText)\" is not a JSON Pointer; write it as \"#/group/token/$value\"")
                }
                let key = pointer.description
                let source = file(of: chain.last!)
                if chain.contains(key) {
                    throw .circularReference(file: source, chain: chain + [key], position: current.position)
                }
                guard let root = roots[source], let target = pointer.resolve(in: root) else {
                    throw .brokenReference(
                        file: source, tokenPath: chain.last!, reference: pointerText, position: current.position)
                }
                chain.append(key)
                // A pointer at a whole token means its value.
                if let tokenValue = valueOf(target) {
                    let dotted = pointer.tokens.joined(separator: ".")
                    visited.append(dotted)
                    current = tokenValue
                } else {
                    if let index = pointer.tokens.firstIndex(where: { $0 == "$value" || $0 == "value" }) {
                        visited.append(pointer.tokens[..<index].joined(separator: "."))
                    }
                    current = target
                }
            } else {
                return current
            }
        }
    }

    /// Finds what `{a.b.c}` designates: a token's value, or a part inside a composite token's value.
    private func lookUp(reference: String, from tokenPath: String, position: SourcePosition) throws(AuditInputError)
        -> (key: String, value: SourceJSONValue)
    {
        if let token = token(at: reference) { return (token.path, token.value) }
        // `{typography.body.fontWeight}`: a token followed by a path inside its value.
        let parts = reference.split(separator: ".").map(String.init)
        if parts.count > 1 {
            for split in stride(from: parts.count - 1, through: 1, by: -1) {
                guard let token = token(at: parts[..<split].joined(separator: ".")) else { continue }
                var node = token.value
                var ok = true
                for part in parts[split...] where part != "$value" && part != "value" {
                    guard let next = node[part] else {
                        ok = false
                        break
                    }
                    node = next
                }
                if ok { return (reference, node) }
            }
        }
        throw .brokenReference(
            file: file(of: tokenPath), tokenPath: tokenPath, reference: "{\(reference)}", position: position)
    }
}

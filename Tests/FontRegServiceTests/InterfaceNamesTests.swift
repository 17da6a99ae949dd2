import Testing

@testable import FontRegJSON
@testable import FontRegService
@testable import Varlink

/// Every name of the served interface must be usable as an identifier by the clients
/// that build types from it (issue 23): asyncvarlink could not load `global`.
@Suite("io.fontreg.Registry names every client language accepts")
struct InterfaceNamesTests {
    /// The reserved words of each client language, complete.
    static let reservedWords: [String: Set<String>] = [
        // Python 3.12 `keyword.kwlist`; the soft keywords (`match`, `case`, `type`, `_`)
        // are identifiers everywhere a field or parameter name goes.
        "Python": [
            "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
            "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
            "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
        ],
        // The Go specification's 25 keywords.
        "Go": [
            "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for",
            "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
            "struct", "switch", "type", "var",
        ],
        // ECMAScript 2024 reserved words, with those reserved in strict mode and modules
        // and the literals `null`, `true`, `false`.
        "JavaScript": [
            "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
            "do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import",
            "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try",
            "typeof", "var", "void", "while", "with", "yield", "let", "static", "implements", "interface",
            "package", "private", "protected", "public",
        ],
        // The Rust reference: strict keywords, reserved keywords (with `gen` of edition 2024).
        "Rust": [
            "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
            "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
            "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
            "use", "where", "while", "abstract", "become", "box", "do", "final", "gen", "macro", "override",
            "priv", "try", "typeof", "unsized", "virtual", "yield",
        ],
        // The Swift Programming Language, "Keywords and Punctuation": the keywords of
        // declarations, statements, expressions and types, and patterns (those reserved
        // only in particular contexts are identifiers elsewhere).
        "Swift": [
            "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
            "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
            "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
            "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
            "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
            "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
        ],
    ]

    /// Names served before issue 23 that clash only with languages able to escape them:
    /// Rust (`r#match`) and Swift (`` `private` ``) escape keywords, and a JavaScript
    /// property may be named with a reserved word (`registration.private`). Python cannot
    /// escape `global`, hence its rename; renaming these is a wire change of its own. Each
    /// must still be in the interface, so that the list only shrinks.
    static let escapedByTheirBindings: Set<String> = [
        "match in Rust",  // Resolution.match
        "private in JavaScript", "private in Swift",  // Registration.private
    ]

    @Test func everyNameOfTheServedInterfaceIsAnIdentifierInPythonGoJavaScriptRustAndSwift() throws {
        let names = try VarlinkNames(VarlinkInterfaceDescription.registry.text).all
        #expect(names.contains { $0.name == "DisabledEntry" } && names.contains { $0.name == "GetStatus" })
        var escaped: Set<String> = []
        for name in names {
            for (language, words) in Self.reservedWords.sorted(by: { $0.key < $1.key })
            where words.contains(name.name) {
                let clash = "\(name.name) in \(language)"
                if Self.escapedByTheirBindings.contains(clash) {
                    escaped.insert(clash)
                } else {
                    Issue.record("\(name.role) `\(name.name)` (\(name.place)) is a reserved word in \(language)")
                }
            }
        }
        #expect(escaped == Self.escapedByTheirBindings, "no longer in the interface: drop it from the list")
    }

    @Test func theDisabledEntryFieldIsSystemWideNotThePythonKeywordGlobal() throws {
        let names = try VarlinkNames(VarlinkInterfaceDescription.registry.text).all
        let fields = names.filter { $0.role == "field" && $0.place == "type DisabledEntry" }.map(\.name)
        #expect(fields == ["kind", "value", "owner", "systemWide"])
    }

    @Test func aStateFileOfAnEarlierReleaseWithGlobalIsStillReadAndWrittenAsSystemWide() throws {
        let old: JSONValue = ["kind": "family", "value": "Lato", "owner": 0, "global": true]
        let entry = try #require(DisabledEntry(old))
        #expect(entry.systemWide)
        #expect(entry.jsonValue["systemWide"] == true && entry.jsonValue["global"] == nil)
        #expect(DisabledEntry(entry.jsonValue) == entry)
    }

    @Test func theNameReaderFindsEveryKindOfNameAndRejectsWhatItCannotRead() throws {
        let text = """
            # A comment: global
            interface org.example.Names

            type Pair (first: ?string, rest: []Pair, map: [string](a, b), inline: (x: int))
            type Colour (red, green)
            method Get(key: string) -> (value: object)
            error Missing (key: string)
            """
        let found = try VarlinkNames(text).all.map { "\($0.role) \($0.name)" }
        #expect(
            found == [
                "interface name org", "interface name example", "interface name Names", "type Pair",
                "field first", "field rest", "field map", "enum value a", "enum value b", "field inline",
                "field x", "type Colour", "enum value red", "enum value green", "method Get", "parameter key",
                "parameter value", "error Missing", "parameter key",
            ])
        #expect(throws: VarlinkNames.Unreadable.self) { try VarlinkNames("type Broken (a: ") }
        #expect(throws: VarlinkNames.Unreadable.self) { try VarlinkNames("method M(a: int) (b: int)") }
    }
}

/// The names a Varlink interface definition declares, read with its grammar.
struct VarlinkNames {
    /// A declared name: what it is and where.
    struct Name {
        var role: String
        var name: String
        var place: String
    }

    /// The text is not a Varlink interface definition this reader understands.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var all: [Name] = []
    private var tokens: [String]
    private var position = 0

    init(_ text: String) throws {
        tokens = Self.tokens(of: text)
        while let keyword = next() {
            switch keyword {
            case "interface":
                for part in try identifier().split(separator: ".") {
                    all.append(Name(role: "interface name", name: String(part), place: "interface"))
                }
            case "type":
                let name = try identifier()
                all.append(Name(role: "type", name: name, place: "type \(name)"))
                try expect("(")
                try members(of: "type \(name)", role: "field")
            case "method":
                let name = try identifier()
                all.append(Name(role: "method", name: name, place: "method \(name)"))
                try expect("(")
                try members(of: "method \(name)", role: "parameter")
                try expect("->")
                try expect("(")
                try members(of: "method \(name)", role: "parameter")
            case "error":
                let name = try identifier()
                all.append(Name(role: "error", name: name, place: "error \(name)"))
                try expect("(")
                try members(of: "error \(name)", role: "parameter")
            default:
                throw Unreadable(description: "unexpected `\(keyword)`")
            }
        }
    }

    /// Identifiers (dots included, for the interface name), `->` and single punctuation;
    /// comments dropped.
    private static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(line.prefix { $0 != "#" })
            while let first = rest.first {
                if first.isWhitespace {
                    rest = rest.dropFirst()
                } else if first.isLetter || first.isNumber || first == "_" {
                    let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                    tokens.append(String(word))
                    rest = rest.dropFirst(word.count)
                } else if rest.hasPrefix("->") {
                    tokens.append("->")
                    rest = rest.dropFirst(2)
                } else {
                    tokens.append(String(first))
                    rest = rest.dropFirst()
                }
            }
        }
        return tokens
    }

    private mutating func next() -> String? {
        guard position < tokens.count else { return nil }
        defer { position += 1 }
        return tokens[position]
    }

    private func peek() -> String? { position < tokens.count ? tokens[position] : nil }

    private mutating func expect(_ token: String) throws {
        let found = next()
        guard found == token else { throw Unreadable(description: "expected `\(token)`, found `\(found ?? "end")`") }
    }

    private mutating func identifier() throws -> String {
        guard let token = next(), let first = token.first, first.isLetter || first == "_" else {
            throw Unreadable(description: "expected a name")
        }
        return token
    }

    /// The fields of a struct or the values of an enum, after its `(` and through its `)`.
    private mutating func members(of place: String, role: String) throws {
        if peek() == ")" { return try expect(")") }
        repeat {
            let name = try identifier()
            if peek() == ":" {
                try expect(":")
                all.append(Name(role: role, name: name, place: place))
                try type(in: place)
            } else {
                all.append(Name(role: "enum value", name: name, place: place))
            }
        } while try separator()
    }

    /// Reads `,` (true) or `)` (false).
    private mutating func separator() throws -> Bool {
        switch next() {
        case ",": return true
        case ")": return false
        case let other: throw Unreadable(description: "expected `,` or `)`, found `\(other ?? "end")`")
        }
    }

    /// A type: `?T`, `[]T`, `[string]T`, `(…)` or a name.
    private mutating func type(in place: String) throws {
        switch peek() {
        case "?":
            try expect("?")
            try type(in: place)
        case "[":
            try expect("[")
            if peek() != "]" { _ = try identifier() }
            try expect("]")
            try type(in: place)
        case "(":
            try expect("(")
            try members(of: place, role: "field")
        default:
            _ = try identifier()
        }
    }
}

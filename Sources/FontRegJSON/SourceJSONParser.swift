/// A JSON parser that records the line and column of every value: strict RFC 8259 JSON, or
/// JSON5 (see ``Dialect``) for token files as design systems keep them.
///
/// Foundation's `JSONSerialization` reports only a byte offset and forgets where values
/// were; the audit and the rule files need `file:line:column` in every message.
/// Duplicate keys in one object are rejected, because in a token file the second one
/// silently wins and that is nearly always a mistake.
///
/// The daemon's protocol has its own `JSONParser` (Protocol/): a position-free fast path
/// for messages on the wire. This one is for files people edit, where every error names
/// its line and column.
package struct SourceJSONParser {
    /// What the parser accepts.
    package enum Dialect: Sendable {
        /// Strict RFC 8259 JSON; each JSON5 extension is an error that says what to change.
        case json
        /// JSON5, which adds what people write by hand: `//` and `/* */` comments, unquoted keys
        /// (ECMAScript identifiers), single-quoted strings, trailing commas, hexadecimal numbers,
        /// leading or trailing decimal points, an explicit `+`, and strings continued over a line with `\`.
        case json5
    }

    /// The deepest nesting accepted, so that hostile input cannot exhaust the stack.
    package static let maximumDepth = 256

    let bytes: [UInt8]
    let file: String?
    let dialect: Dialect
    var index = 0
    var line = 1
    var column = 1
    private var depth = 0

    /// Parses a complete JSON text.
    ///
    /// - Parameters:
    ///   - text: the JSON text; a leading byte order mark is skipped.
    ///   - file: the file name used in error messages.
    /// - Returns: the top-level value.
    /// - Throws: ``SourceJSONError`` with the line and column of the first problem.
    ///   - dialect: strict JSON (the default) or JSON5.
    package static func parse(_ text: String, file: String? = nil, dialect: Dialect = .json) throws(SourceJSONError)
        -> SourceJSONValue
    {
        try parse(bytes: Array(text.utf8), file: file, dialect: dialect)
    }

    /// Parses a complete JSON text given as UTF-8 bytes.
    ///
    /// - Throws: ``SourceJSONError`` with the line and column of the first problem.
    package static func parse(bytes: [UInt8], file: String? = nil, dialect: Dialect = .json) throws(SourceJSONError)
        -> SourceJSONValue
    {
        var parser = SourceJSONParser(bytes: bytes, file: file, dialect: dialect)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        try parser.skipWhitespace()
        guard parser.index < bytes.count else {
            throw parser.error("the file is empty; expected a JSON value such as {…}")
        }
        let value = try parser.parseValue()
        try parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error(
                "unexpected \(parser.describeCurrent()) after the end of the JSON value; remove it or wrap both values in an array"
            )
        }
        return value
    }

    private init(bytes: [UInt8], file: String?, dialect: Dialect) {
        self.bytes = bytes
        self.file = file
        self.dialect = dialect
    }

    var position: SourcePosition { SourcePosition(line: line, column: column, offset: index) }

    func error(_ message: String, at position: SourcePosition? = nil) -> SourceJSONError {
        SourceJSONError(file: file, position: position ?? self.position, message: message)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // Continuation bytes of a UTF-8 sequence do not start a new column.
            column += 1
        }
    }

    func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        if byte == UInt8(ascii: "\n") { return "line break" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Skips white space, and in JSON5 comments too.
    private mutating func skipWhitespace() throws(SourceJSONError) {
        if dialect == .json5 { return try skipSpaceAndComments() }
        while let byte = current,
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        {
            advance()
        }
    }

    private mutating func parseValue() throws(SourceJSONError) -> SourceJSONValue {
        let start = position
        guard let byte = current else {
            throw error("unexpected end of file; expected a value")
        }
        if dialect == .json5, let value = try parseJSON5Value(byte, at: start) { return value }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString(), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true, at: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false, at: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null(at: start)
        case UInt8(ascii: "'"):
            throw error("strings must use double quotes (\"…\"), not single quotes")
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            throw error(
                "unknown word; JSON's keywords are true, false and null in lower case, and text needs double quotes")
        default:
            throw error(
                "unexpected \(describeCurrent()); expected a value (object, array, string, number, true, false or null)"
            )
        }
    }

    private mutating func expectWord(_ word: String) throws(SourceJSONError) {
        let start = position
        for expected in word.utf8 {
            guard current == expected else {
                throw error(
                    "unknown word; expected '\(word)' (JSON keywords are true, false and null in lower case)", at: start
                )
            }
            advance()
        }
    }

    private mutating func enter() throws(SourceJSONError) {
        depth += 1
        if depth > SourceJSONParser.maximumDepth {
            throw error(
                "nesting deeper than \(SourceJSONParser.maximumDepth) levels; the file is probably not a token file")
        }
    }

    private mutating func parseObject() throws(SourceJSONError) -> SourceJSONValue {
        let start = position
        try enter()
        advance()  // {
        var members: [SourceJSONMember] = []
        var seen: [String: SourcePosition] = [:]
        try skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return .object(members, at: start)
        }
        while true {
            try skipWhitespace()
            if dialect == .json5 && current == UInt8(ascii: "}") {
                advance()
                depth -= 1
                return .object(members, at: start)
            }
            let keyPosition = position
            let key: String
            if dialect == .json5 {
                key = try parseJSON5Key(objectStart: start)
            } else {
                guard current == UInt8(ascii: "\"") else {
                    if current == UInt8(ascii: "}") {
                        throw error("trailing comma before '}'; remove the last comma")
                    }
                    throw error("unexpected \(describeCurrent()); expected a key in double quotes")
                }
                key = try parseString()
            }
            if let earlier = seen[key] {
                throw error(
                    "duplicate key \"\(key)\" (first at line \(earlier.line), column \(earlier.column)); keep only one",
                    at: keyPosition)
            }
            seen[key] = keyPosition
            try skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after the key \"\(key)\"")
            }
            advance()
            try skipWhitespace()
            let value = try parseValue()
            members.append(SourceJSONMember(key: key, keyPosition: keyPosition, value: value))
            try skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                advance()
            case UInt8(ascii: "}"):
                advance()
                depth -= 1
                return .object(members, at: start)
            case nil:
                throw error(
                    "unexpected end of file; the object opened at line \(start.line), column \(start.column) is not closed with '}'"
                )
            default:
                throw error(
                    "unexpected \(describeCurrent()); expected ',' or '}' after the value of \"\(key)\" (a missing comma?)"
                )
            }
        }
    }

    private mutating func parseArray() throws(SourceJSONError) -> SourceJSONValue {
        let start = position
        try enter()
        advance()  // [
        var values: [SourceJSONValue] = []
        try skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return .array(values, at: start)
        }
        while true {
            try skipWhitespace()
            if current == UInt8(ascii: "]") {
                guard dialect == .json5 else { throw error("trailing comma before ']'; remove the last comma") }
                advance()
                depth -= 1
                return .array(values, at: start)
            }
            values.append(try parseValue())
            try skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                advance()
            case UInt8(ascii: "]"):
                advance()
                depth -= 1
                return .array(values, at: start)
            case nil:
                throw error(
                    "unexpected end of file; the array opened at line \(start.line), column \(start.column) is not closed with ']'"
                )
            default:
                throw error("unexpected \(describeCurrent()); expected ',' or ']' in the array (a missing comma?)")
            }
        }
    }

    private mutating func parseString() throws(SourceJSONError) -> String {
        let start = position
        advance()  // "
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) {
            if !run.isEmpty {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
        }
        while true {
            guard let byte = current else {
                throw error("the string opened here is not closed with '\"' before the end of the file", at: start)
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                flush(&run, into: &scalars)
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(&run, into: &scalars)
                let escapePosition = position
                advance()
                guard let escaped = current else {
                    throw error("unexpected end of file inside an escape sequence")
                }
                advance()
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let high = try parseHex4(escapeStart: escapePosition)
                    if (0xD800...0xDBFF).contains(high) {
                        guard current == UInt8(ascii: "\\") else {
                            throw error(
                                "lone UTF-16 high surrogate \\u\(String(high, radix: 16)); follow it with a low surrogate \\uDC00–\\uDFFF",
                                at: escapePosition)
                        }
                        advance()
                        guard current == UInt8(ascii: "u") else {
                            throw error("lone UTF-16 high surrogate; expected \\u after it", at: escapePosition)
                        }
                        advance()
                        let low = try parseHex4(escapeStart: escapePosition)
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("invalid UTF-16 surrogate pair", at: escapePosition)
                        }
                        let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        scalars.append(UnicodeScalar(combined)!)
                    } else if let scalar = UnicodeScalar(high) {
                        scalars.append(scalar)
                    } else {
                        throw error("lone UTF-16 low surrogate \\u\(String(high, radix: 16))", at: escapePosition)
                    }
                default:
                    throw error(
                        "invalid escape sequence '\\\(Character(UnicodeScalar(escaped)))'; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u with four hex digits",
                        at: escapePosition)
                }
            case 0x00..<0x20:
                throw error(
                    "control character (\(describeCurrent())) inside a string; write it as an escape such as \\n")
            default:
                run.append(byte)
                advance()
            }
        }
    }

    private mutating func parseHex4(escapeStart: SourcePosition) throws(SourceJSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigit(byte) else {
                throw error("\\u must be followed by four hexadecimal digits", at: escapeStart)
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func parseNumber() throws(SourceJSONError) -> SourceJSONValue {
        let start = position
        let startIndex = index
        func isDigit(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
        if current == UInt8(ascii: "-") { advance() }
        guard isDigit(current) else {
            throw error("a number needs digits after '-'", at: start)
        }
        if current == UInt8(ascii: "0") {
            advance()
            if isDigit(current) {
                throw error("numbers must not have leading zeros", at: start)
            }
        } else {
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard isDigit(current) else {
                throw error("a number needs digits after the decimal point", at: start)
            }
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard isDigit(current) else {
                throw error("a number needs digits in its exponent", at: start)
            }
            while isDigit(current) { advance() }
        }
        let literal = String(decoding: bytes[startIndex..<index], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw error("number \(literal) is out of range", at: start)
        }
        return .number(value, literal: literal, at: start)
    }
}

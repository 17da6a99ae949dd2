import FontRegJSON

/// A JSON5 parser that records the line and column of every value, for token files as design systems keep them.
///
/// JSON5 adds to JSON what people write by hand: `//` and `/* */` comments, unquoted keys
/// (ECMAScript identifiers), single-quoted strings, trailing commas, hexadecimal numbers,
/// leading or trailing decimal points, an explicit `+`, and strings continued over a line with
/// `\`. Duplicate keys are rejected as in ``SourceJSONParser``, since the second one silently wins.
struct JSON5SourceParser {
    private let bytes: [UInt8]
    private let file: String?
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    /// Parses a complete JSON5 text.
    ///
    /// - Throws: `SourceJSONError` with the line and column of the first problem.
    static func parse(_ text: String, file: String?) throws(SourceJSONError) -> SourceJSONValue {
        var parser = JSON5SourceParser(bytes: Array(text.utf8), file: file)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        try parser.skipSpaceAndComments()
        guard parser.current != nil else { throw parser.error("the file is empty; expected a value such as {…}") }
        let value = try parser.parseValue()
        try parser.skipSpaceAndComments()
        if parser.current != nil {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the value")
        }
        return value
    }

    private init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
    }

    private var position: SourcePosition { SourcePosition(line: line, column: column, offset: index) }
    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    private func peek(_ ahead: Int) -> UInt8? { index + ahead < bytes.count ? bytes[index + ahead] : nil }

    private func error(_ message: String, at position: SourcePosition? = nil) -> SourceJSONError {
        SourceJSONError(file: file, position: position ?? self.position, message: message)
    }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return byte == UInt8(ascii: "\n") ? "line break" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Skips white space and comments.
    private mutating func skipSpaceAndComments() throws(SourceJSONError) {
        while let byte = current {
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0B || byte == 0x0C {
                advance()
            } else if byte == 0xC2, peek(1) == 0xA0 {
                advance()
                advance()
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let next = current, next != 0x0A { advance() }
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                let start = position
                advance()
                advance()
                while !(current == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) {
                    guard current != nil else {
                        throw error("the comment opened here is not closed with */", at: start)
                    }
                    advance()
                }
                advance()
                advance()
            } else {
                return
            }
        }
    }

    private mutating func parseValue() throws(SourceJSONError) -> SourceJSONValue {
        let start = position
        guard let byte = current else { throw error("unexpected end of file; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try parseString(), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            let word = readIdentifier()
            switch word {
            case "true": return .bool(true, at: start)
            case "false": return .bool(false, at: start)
            case "null": return .null(at: start)
            case "Infinity", "NaN":
                throw error("\(word) is not a usable token value; write a finite number", at: start)
            default:
                throw error(
                    "unexpected \(word.isEmpty ? describeCurrent() : "word '\(word)'"); expected a value (text needs quotes)",
                    at: start)
            }
        }
    }

    /// Reads an ECMAScript-style identifier (ASCII letters, digits, `_`, `$`, and any non-ASCII letter).
    private mutating func readIdentifier() -> String {
        var bytesRead: [UInt8] = []
        while let byte = current {
            let isStart =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "$") || byte >= 0x80
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard isStart || (isDigit && !bytesRead.isEmpty) else { break }
            bytesRead.append(byte)
            advance()
        }
        return String(decoding: bytesRead, as: UTF8.self)
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
        while true {
            try skipSpaceAndComments()
            if current == UInt8(ascii: "}") {
                advance()
                depth -= 1
                return .object(members, at: start)
            }
            let keyPosition = position
            let key: String
            if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                key = try parseString()
            } else {
                key = readIdentifier()
                guard !key.isEmpty else {
                    if current == nil {
                        throw error(
                            "unexpected end of file; the object opened at line \(start.line), column \(start.column) is not closed with '}'"
                        )
                    }
                    throw error("unexpected \(describeCurrent()); expected a key")
                }
            }
            if let earlier = seen[key] {
                throw error(
                    "duplicate key \"\(key)\" (first at line \(earlier.line), column \(earlier.column)); keep only one",
                    at: keyPosition)
            }
            seen[key] = keyPosition
            try skipSpaceAndComments()
            guard current == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after the key \"\(key)\"")
            }
            advance()
            try skipSpaceAndComments()
            members.append(SourceJSONMember(key: key, keyPosition: keyPosition, value: try parseValue()))
            try skipSpaceAndComments()
            if current == UInt8(ascii: ",") {
                advance()
            } else if current != UInt8(ascii: "}") {
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
        while true {
            try skipSpaceAndComments()
            if current == UInt8(ascii: "]") {
                advance()
                depth -= 1
                return .array(values, at: start)
            }
            guard current != nil else {
                throw error(
                    "unexpected end of file; the array opened at line \(start.line), column \(start.column) is not closed with ']'"
                )
            }
            values.append(try parseValue())
            try skipSpaceAndComments()
            if current == UInt8(ascii: ",") {
                advance()
            } else if current != UInt8(ascii: "]") {
                throw error("unexpected \(describeCurrent()); expected ',' or ']' in the array (a missing comma?)")
            }
        }
    }

    private mutating func parseString() throws(SourceJSONError) -> String {
        let start = position
        let quote = bytes[index]
        advance()
        var output: [UInt8] = []
        while true {
            guard let byte = current else { throw error("the string opened here is not closed", at: start) }
            if byte == quote {
                advance()
                return String(decoding: output, as: UTF8.self)
            }
            if byte == 0x0A {
                throw error("a line break inside a string; end the line with \\ to continue it", at: start)
            }
            if byte != UInt8(ascii: "\\") {
                output.append(byte)
                advance()
                continue
            }
            advance()
            try parseEscape(into: &output)
        }
    }

    private mutating func parseEscape(into output: inout [UInt8]) throws(SourceJSONError) {
        guard let escaped = current else { throw error("unexpected end of file after \\") }
        let simple: [UInt8: String] = [
            UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n",
            UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t", UInt8(ascii: "v"): "\u{0B}", UInt8(ascii: "0"): "\u{00}",
        ]
        advance()
        if let text = simple[escaped] {
            output += Array(text.utf8)
        } else if escaped == 0x0A {
            return  // a continued line
        } else if escaped == UInt8(ascii: "u") || escaped == UInt8(ascii: "x") {
            var value: UInt32 = 0
            for _ in 0..<(escaped == UInt8(ascii: "u") ? 4 : 2) {
                guard let byte = current, let digit = hexDigit(byte) else {
                    throw error("\\\(Character(UnicodeScalar(escaped))) needs hexadecimal digits")
                }
                value = value * 16 + digit
                advance()
            }
            output += Array(String(Character(UnicodeScalar(value) ?? "\u{FFFD}")).utf8)
        } else {
            output.append(escaped)
        }
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
        var negative = false
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
            negative = current == UInt8(ascii: "-")
            advance()
        }
        if current == UInt8(ascii: "0"), peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X") {
            advance()
            advance()
            var value = 0
            var digits = 0
            while let byte = current, let digit = hexDigit(byte), digits < 15 {
                value = value * 16 + Int(digit)
                digits += 1
                advance()
            }
            guard digits > 0 else { throw error("a hexadecimal number needs digits after 0x", at: start) }
            let result = negative ? -value : value
            return .number(Double(result), literal: String(result), at: start)
        }
        var text = negative ? "-" : ""
        while let byte = current,
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))
                    && (text.hasSuffix("e") || text.hasSuffix("E")))
        {
            text.append(Character(UnicodeScalar(byte)))
            advance()
        }
        var normalized = text.replacingOccurrences(of: "-.", with: "-0.")
        if normalized.hasPrefix(".") { normalized = "0" + normalized }
        if normalized.hasSuffix(".") { normalized += "0" }
        normalized = normalized.replacingOccurrences(of: ".e", with: ".0e").replacingOccurrences(of: ".E", with: ".0E")
        guard let value = Double(normalized), value.isFinite, normalized.contains(where: \.isNumber) else {
            throw error("'\(text)' is not a number", at: start)
        }
        let literal =
            value == value.rounded() && abs(value) < 9e15 && !text.contains("e") && !text.contains("E")
            ? String(Int(value)) : normalized
        return .number(value, literal: literal, at: start)
    }
}

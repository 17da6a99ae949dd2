import Foundation

/// The JSON5 half of ``SourceJSONParser``: what JSON5 adds to JSON, used when the dialect is
/// ``SourceJSONParser/Dialect/json5``.
extension SourceJSONParser {
    func peek(_ ahead: Int) -> UInt8? { index + ahead < bytes.count ? bytes[index + ahead] : nil }

    /// A value only JSON5 has (single-quoted string, `+`/`.`/hex number, a bare word), or `nil`
    /// for a value strict JSON reads the same way.
    mutating func parseJSON5Value(_ byte: UInt8, at start: SourcePosition) throws(SourceJSONError) -> SourceJSONValue? {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return nil
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try parseJSON5String(), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseJSON5Number()
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

    /// A key: a quoted string (either quote) or an identifier.
    mutating func parseJSON5Key(objectStart start: SourcePosition) throws(SourceJSONError) -> String {
        if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") { return try parseJSON5String() }
        let key = readIdentifier()
        guard key.isEmpty else { return key }
        if current == nil {
            throw error(
                "unexpected end of file; the object opened at line \(start.line), column \(start.column) is not closed with '}'"
            )
        }
        throw error("unexpected \(describeCurrent()); expected a key")
    }

    /// Skips white space and comments.
    mutating func skipSpaceAndComments() throws(SourceJSONError) {
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

    /// Reads an ECMAScript-style identifier (ASCII letters, digits, `_`, `$`, and any non-ASCII letter).
    mutating func readIdentifier() -> String {
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

    mutating func parseJSON5String() throws(SourceJSONError) -> String {
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
            try parseJSON5Escape(into: &output)
        }
    }

    mutating func parseJSON5Escape(into output: inout [UInt8]) throws(SourceJSONError) {
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
                guard let byte = current, let digit = json5HexDigit(byte) else {
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

    func json5HexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    mutating func parseJSON5Number() throws(SourceJSONError) -> SourceJSONValue {
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
            while let byte = current, let digit = json5HexDigit(byte), digits < 15 {
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

import FontRegJSON

/// A small Swift tokenizer: enough to find declarations and calls in source text without SwiftSyntax.
///
/// Comments (nested block comments too) are dropped, string literals (plain, multi-line, raw)
/// become one token holding their text, and every token records whether a line break precedes it,
/// because Swift ends a statement at a line break.
struct SwiftSourceScanner {
    /// One token and where it starts.
    struct Token: Equatable {
        /// What sort of token it is.
        enum Kind: Equatable {
            case identifier
            case keyword
            case string
            case number
            case punctuation
        }

        var kind: Kind
        var text: String
        /// Byte offset of the token in the file.
        var offset: Int
        var newlineBefore: Bool
    }

    static let keywords: Set<String> = [
        "let", "var", "static", "class", "struct", "enum", "extension", "protocol", "func", "init",
        "return", "public", "private", "fileprivate", "internal", "open", "final", "where", "import",
        "case", "some", "any", "nonisolated", "actor", "typealias", "if", "else", "switch", "for",
        "while", "guard", "in", "lazy",
    ]

    /// Splits the source into tokens.
    ///
    /// - Returns: the tokens, or `nil` and the offset of an unterminated string or comment.
    static func tokenize(_ source: String) -> (tokens: [Token], unterminatedAt: Int?) {
        let bytes = Array(source.utf8)
        var tokens: [Token] = []
        var index = 0
        var newline = true
        func append(_ kind: Token.Kind, _ text: String, at start: Int) {
            tokens.append(Token(kind: kind, text: text, offset: start, newlineBefore: newline))
            newline = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next: UInt8? = index + 1 < bytes.count ? bytes[index + 1] : nil
            switch byte {
            case 0x0A:
                newline = true
                index += 1
            case 0x20, 0x09, 0x0D:
                index += 1
            case UInt8(ascii: "/") where next == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                guard let end = skipBlockComment(bytes, from: index, newline: &newline) else { return (tokens, index) }
                index = end
            case _ where byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && nextIsRawString(bytes, index)):
                guard let (text, end) = readString(bytes, from: index) else { return (tokens, index) }
                append(.string, text, at: index)
                index = end
            case _ where isIdentifierStart(byte) || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "$"):
                let (kind, text, end) = readIdentifier(bytes, from: index)
                append(kind, text, at: index)
                index = end
            case _ where isDigit(byte):
                let end = numberEnd(bytes, from: index)
                append(.number, String(decoding: bytes[index..<end], as: UTF8.self), at: index)
                index = end
            default:
                let end = operatorEnd(bytes, from: index)
                append(.punctuation, String(decoding: bytes[index..<end], as: UTF8.self), at: index)
                index = end
            }
        }
        return (tokens, nil)
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Skips a (nested) block comment starting at `start`; `nil` when it never closes.
    private static func skipBlockComment(_ bytes: [UInt8], from start: Int, newline: inout Bool) -> Int? {
        var index = start
        var depth = 0
        repeat {
            if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "*")
                && bytes[index + 1] == UInt8(ascii: "/")
            {
                depth -= 1
                index += 2
            } else {
                if bytes[index] == 0x0A { newline = true }
                index += 1
            }
        } while depth > 0 && index < bytes.count
        return depth > 0 ? nil : index
    }

    /// Reads an identifier, a keyword or a `` `quoted` `` identifier; returns its kind, text and end.
    private static func readIdentifier(_ bytes: [UInt8], from start: Int) -> (Token.Kind, String, Int) {
        var end = start + 1
        if bytes[start] == UInt8(ascii: "`") {
            while end < bytes.count && bytes[end] != UInt8(ascii: "`") { end += 1 }
            let text = String(decoding: bytes[(start + 1)..<min(end, bytes.count)], as: UTF8.self)
            return (.identifier, text, min(end + 1, bytes.count))
        }
        while end < bytes.count && (isIdentifierStart(bytes[end]) || isDigit(bytes[end])) { end += 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return (keywords.contains(text) ? .keyword : .identifier, text, end)
    }

    /// Where a number literal (`600`, `1_000`, `1.5`, `0x1F`) starting at `start` ends.
    private static func numberEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var end = start + 1
        while end < bytes.count
            && (isDigit(bytes[end]) || bytes[end] == UInt8(ascii: "_")
                || bytes[end] == UInt8(ascii: ".") && end + 1 < bytes.count && isDigit(bytes[end + 1])
                || isIdentifierStart(bytes[end]))
        {
            end += 1
        }
        return end
    }

    /// Where an operator or punctuation starting at `start` ends; operators of several characters (`->`, `==`) stay whole.
    private static func operatorEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var end = start + 1
        if operatorCharacters.contains(bytes[start]) {
            while end < bytes.count && operatorCharacters.contains(bytes[end]) { end += 1 }
        }
        return end
    }

    private static let operatorCharacters: Set<UInt8> = Set("=-+*/<>!&|^~?%".utf8)

    private static func nextIsRawString(_ bytes: [UInt8], _ index: Int) -> Bool {
        var i = index
        while i < bytes.count && bytes[i] == UInt8(ascii: "#") { i += 1 }
        return i > index && i < bytes.count && bytes[i] == UInt8(ascii: "\"")
    }

    /// Reads a string literal starting at `index`; returns its text (escapes left as written, interpolations kept) and the end offset.
    private static func readString(_ bytes: [UInt8], from index: Int) -> (String, Int)? {
        var i = index
        var hashes = 0
        while i < bytes.count && bytes[i] == UInt8(ascii: "#") {
            hashes += 1
            i += 1
        }
        let quote = UInt8(ascii: "\"")
        let multiline = i + 2 < bytes.count && bytes[i] == quote && bytes[i + 1] == quote && bytes[i + 2] == quote
        let quoteCount = multiline ? 3 : 1
        i += quoteCount
        let contentStart = i
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") && hashes == 0 {
                i += 2
                continue
            }
            if !multiline && bytes[i] == 0x0A { return nil }
            if bytes[i] == quote {
                var j = i
                var quotes = 0
                while j < bytes.count && bytes[j] == quote && quotes < quoteCount {
                    quotes += 1
                    j += 1
                }
                var closingHashes = 0
                while closingHashes < hashes && j < bytes.count && bytes[j] == UInt8(ascii: "#") {
                    closingHashes += 1
                    j += 1
                }
                if quotes == quoteCount && closingHashes == hashes {
                    let text = String(decoding: bytes[contentStart..<i], as: UTF8.self)
                    return (text, j)
                }
            }
            i += 1
        }
        return nil
    }

    /// The 1-based line and column of a byte offset.
    static func position(of offset: Int, in source: String) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        for byte in source.utf8 {
            if index == offset { break }
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: column, offset: offset)
    }
}

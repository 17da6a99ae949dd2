import FontRegCore
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
        func isIdentifierStart(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0A:
                newline = true
                index += 1
            case 0x20, 0x09, 0x0D:
                index += 1
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                let start = index
                var depth = 0
                repeat {
                    if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "/")
                        && bytes[index + 1] == UInt8(ascii: "*")
                    {
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
                if depth > 0 { return (tokens, start) }
            case _ where byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && nextIsRawString(bytes, index)):
                let start = index
                guard let (text, end) = readString(bytes, from: index) else { return (tokens, start) }
                tokens.append(Token(kind: .string, text: text, offset: start, newlineBefore: newline))
                newline = false
                index = end
            case _ where isIdentifierStart(byte) || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "$"):
                let start = index
                var end = index + 1
                if byte == UInt8(ascii: "`") {
                    while end < bytes.count && bytes[end] != UInt8(ascii: "`") { end += 1 }
                    let text = String(decoding: bytes[(start + 1)..<min(end, bytes.count)], as: UTF8.self)
                    tokens.append(Token(kind: .identifier, text: text, offset: start, newlineBefore: newline))
                    index = min(end + 1, bytes.count)
                } else {
                    while end < bytes.count && (isIdentifierStart(bytes[end]) || isDigit(bytes[end])) { end += 1 }
                    let text = String(decoding: bytes[start..<end], as: UTF8.self)
                    tokens.append(
                        Token(
                            kind: keywords.contains(text) ? .keyword : .identifier, text: text, offset: start,
                            newlineBefore: newline))
                    index = end
                }
                newline = false
            case _ where isDigit(byte):
                let start = index
                var end = index + 1
                while end < bytes.count
                    && (isDigit(bytes[end]) || bytes[end] == UInt8(ascii: "_")
                        || bytes[end] == UInt8(ascii: ".") && end + 1 < bytes.count && isDigit(bytes[end + 1])
                        || isIdentifierStart(bytes[end]))
                {
                    end += 1
                }
                tokens.append(
                    Token(
                        kind: .number, text: String(decoding: bytes[start..<end], as: UTF8.self), offset: start,
                        newlineBefore: newline))
                newline = false
                index = end
            default:
                // Operators made of several characters (`->`, `==`) are kept whole.
                let operatorChars: Set<UInt8> = Set("=-+*/<>!&|^~?%".utf8)
                var end = index + 1
                if operatorChars.contains(byte) {
                    while end < bytes.count && operatorChars.contains(bytes[end]) { end += 1 }
                }
                tokens.append(
                    Token(
                        kind: .punctuation, text: String(decoding: bytes[index..<end], as: UTF8.self), offset: index,
                        newlineBefore: newline))
                newline = false
                index = end
            }
        }
        return (tokens, nil)
    }

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

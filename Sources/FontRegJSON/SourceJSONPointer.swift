import Foundation

/// An RFC 6901 JSON Pointer such as `#/font/weight/bold/$value`.
package struct SourceJSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first.
    package var tokens: [String]

    /// Parses a pointer, with or without the leading `#` of a URI fragment.
    ///
    /// - Returns: `nil` when the text is not a pointer (does not start with `/` or `#/`, or is not
    ///   `#` or empty for the whole document).
    package init?(_ text: String) {
        var body = Substring(text)
        if body.hasPrefix("#") {
            body = body.dropFirst()
            // URI fragments percent-encode; undo the common case.
            body = Substring(body.removingPercentEncodingIfPossible())
        }
        if body.isEmpty {
            tokens = []
            return
        }
        guard body.hasPrefix("/") else { return nil }
        tokens = body.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    package init(tokens: [String]) {
        self.tokens = tokens
    }

    /// The pointer in `#/a/b` form.
    package var description: String {
        "#"
            + tokens.map {
                "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            }.joined()
    }

    /// The value the pointer designates inside `root`, or `nil` when a step does not exist.
    package func resolve(in root: SourceJSONValue) -> SourceJSONValue? {
        var node = root
        for token in tokens {
            switch node {
            case .object:
                guard let next = node[token] else { return nil }
                node = next
            case .array(let values, _):
                guard let index = Int(token), index >= 0, index < values.count,
                    token == String(index)
                else { return nil }
                node = values[index]
            default:
                return nil
            }
        }
        return node
    }
}

extension Substring {
    fileprivate func removingPercentEncodingIfPossible() -> String {
        guard contains("%") else { return String(self) }
        var bytes: [UInt8] = []
        let source = Array(utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
                let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                // A lone or malformed `%` stays as written.
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

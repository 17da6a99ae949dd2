import FontRegCore
import FontRegJSON
import FontRegProtocol

/// The JSON `fontresolve` prints: ``JSONBytesWriter``'s one style, the same the daemon writes.
enum JSONOutput {
    /// Any encodable value as JSON text; compact (one line) when `pretty` is false.
    package static func text<T: Encodable>(_ value: T, pretty: Bool = true) -> String {
        guard let tree = try? JSONValue(encoding: value) else {
            preconditionFailure("the client's own output types always encode to valid JSON")
        }
        return tree.text(pretty: pretty)
    }

    /// A resolve reply as ``text(_:pretty:)`` prints it, from the reply's own writer
    /// (`ResolutionReply.jsonBytes`, the daemon's) rather than `JSONEncoder`.
    ///
    /// The generic `Codable` path instantiated its encoder's generic types and looked their
    /// conformances up at run time: 2.8 M of the 9.8 M instructions of a whole `fontresolve
    /// resolve --json` process (issue 29 item 1). The writer gives the same members
    /// (FontRegProtocolTests); whole numbers are put the way `JSONEncoder` puts them
    /// (``codableNumbers(_:)``), so the text is the same byte for byte.
    static func text(_ reply: ResolutionReply, pretty: Bool = true) -> String {
        codableNumbers(reply.jsonValue).text(pretty: pretty)
    }

    /// `value` with every `Double` that `JSONEncoder` writes without a fraction (`650.0` as
    /// `650`: its text is the number's `description` less a final `.0`) as the integer that text
    /// reads back as, so a tree from a direct writer prints as one from the `Codable` encoding.
    static func codableNumbers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number):
            let text = number.description
            guard text.hasSuffix(".0"), let whole = Int(text.dropLast(2)) else { return value }
            return .int(whole)
        case .array(let elements): return .array(elements.map(codableNumbers))
        case .object(let members): return .object(members.mapValues(codableNumbers))
        default: return value
        }
    }
}

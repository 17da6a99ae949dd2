import FontRegJSON

/// The JSON `fontresolve` prints: ``JSONBytesWriter``'s one style, the same the daemon writes.
enum JSONOutput {
    /// Any encodable value as JSON text; compact (one line) when `pretty` is false.
    package static func text<T: Encodable>(_ value: T, pretty: Bool = true) -> String {
        guard let tree = try? JSONValue(encoding: value) else {
            preconditionFailure("the client's own output types always encode to valid JSON")
        }
        return tree.text(pretty: pretty)
    }
}

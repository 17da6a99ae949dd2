extension JSONValue {
    /// The compact JSON encoding of the value, objects with sorted keys (written by ``JSONBytesWriter``).
    package func serialized() -> [UInt8] {
        var writer = JSONBytesWriter()
        writer.write(self)
        return writer.output
    }

    /// Appends the compact JSON encoding of the value to `output`.
    package func write(to output: inout [UInt8]) {
        var writer = JSONBytesWriter(style: .compact)
        swap(&writer.output, &output)
        writer.write(self)
        swap(&writer.output, &output)
    }

    /// The JSON text indented two spaces per level, objects with sorted keys, for people to read.
    package func prettyPrinted() -> String {
        var writer = JSONBytesWriter(style: .pretty)
        writer.write(self)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// The JSON text of the value: ``prettyPrinted()`` when `pretty`, else the compact form on one line.
    public func text(pretty: Bool) -> String {
        pretty ? prettyPrinted() : description
    }
}

extension JSONValue {
    /// The JSON text indented two spaces per level, objects with sorted keys, for people to read.
    package func prettyPrinted() -> String {
        var output: [UInt8] = []
        writePretty(to: &output, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    private func writePretty(to output: inout [UInt8], indent: Int) {
        func newline(_ level: Int) {
            output.append(0x0A)
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                element.writePretty(to: &output, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (offset, key) in members.keys.sorted().enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                JSONValue.writeString(key, to: &output)
                output.append(contentsOf: " : ".utf8.dropFirst())
                members[key]!.writePretty(to: &output, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        default:
            write(to: &output)
        }
    }
}

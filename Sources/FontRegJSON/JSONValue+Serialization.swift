extension JSONValue {
    /// The compact JSON encoding of the value, objects with sorted keys.
    package func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    /// Appends the compact JSON encoding of the value to `output`.
    package func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value):
            if value.isFinite {
                output.append(contentsOf: value.description.utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a quoted JSON string, escaping quotes, backslashes and control characters.
    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings need no escaping: copy runs of plain bytes whole.
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                if runStart < index {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
                runStart = index + 1
                switch byte {
                case 0x22: output.append(contentsOf: [0x5C, 0x22])
                case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0xF)])
                }
            }
            if runStart < bytes.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

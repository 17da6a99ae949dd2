/// Writes a JSON object member by member straight into bytes, for the daemon's hot paths.
///
/// The caller gives the members in sorted key order, as ``JSONValue`` writes objects, so
/// output is byte-for-byte what `JSONValue.object(…).serialized()` would give without
/// building a dictionary first.
package struct JSONBytesWriter {
    package var output: [UInt8]
    private var needsComma = false

    package init(into output: [UInt8] = []) {
        self.output = output
        self.output.reserveCapacity(1024)
    }

    /// Opens an object.
    package mutating func begin() {
        output.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the object.
    package mutating func end() {
        output.append(UInt8(ascii: "}"))
        needsComma = true
    }

    private mutating func key(_ name: StaticString) {
        if needsComma { output.append(UInt8(ascii: ",")) }
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = true
    }

    package mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        JSONValue.writeString(value, to: &output)
    }

    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        output.append(contentsOf: String(value).utf8)
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        output.append(contentsOf: (value ? "true" : "false").utf8)
    }

    package mutating func member(_ name: StaticString, _ value: Double) {
        key(name)
        JSONValue.double(value).write(to: &output)
    }

    package mutating func member(_ name: StaticString, _ values: [String]) {
        key(name)
        output.append(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeString(value, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// A member whose value the closure writes (an object or array).
    package mutating func member(_ name: StaticString, _ body: (inout JSONBytesWriter) -> Void) {
        key(name)
        body(&self)
        needsComma = true
    }

    /// An array whose elements the closure writes, one call per element.
    package mutating func array<Element>(_ elements: [Element], _ body: (inout JSONBytesWriter, Element) -> Void) {
        output.append(UInt8(ascii: "["))
        for (offset, element) in elements.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            body(&self, element)
        }
        output.append(UInt8(ascii: "]"))
    }
}

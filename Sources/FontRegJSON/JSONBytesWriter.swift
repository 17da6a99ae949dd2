/// The one JSON writer: every JSON text fontreg produces comes out of it.
///
/// One style everywhere: object keys sorted (callers of the member-by-member API give them
/// in sorted order; ``write(_:)`` sorts a ``JSONValue``'s keys itself), `"key":value` on the
/// wire (``Style/compact``), and `"key": value` with two spaces of indentation per level for
/// people (``Style/pretty``). It has two entry points that produce the same bytes: a
/// ``JSONValue`` tree (``write(_:)``), and member-by-member calls that the daemon's hot paths
/// use to write replies without building dictionaries first.
package struct JSONBytesWriter {
    /// How the text is laid out.
    package enum Style: Sendable {
        /// One line, no spaces: what goes on the wire.
        case compact
        /// Two-space indentation per level and a space after each colon: what people read.
        case pretty
    }

    /// The bytes written so far.
    package var output: [UInt8]
    private let pretty: Bool
    private var depth = 0
    private var needsComma = false

    /// A writer that appends to `output` in `style`.
    package init(into output: [UInt8] = [], style: Style = .compact) {
        self.output = output
        self.output.reserveCapacity(1024)
        pretty = style == .pretty
    }

    /// Opens an object.
    package mutating func begin() {
        output.append(UInt8(ascii: "{"))
        depth += 1
        needsComma = false
    }

    /// Closes the object.
    package mutating func end() {
        close(UInt8(ascii: "}"))
    }

    /// Opens an array; give each element with ``element(_:)`` or ``write(_:)`` after ``nextElement()``.
    mutating func beginArray() {
        output.append(UInt8(ascii: "["))
        depth += 1
        needsComma = false
    }

    /// Closes the array.
    mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Starts the next element of an open array: the comma and, when pretty, the line break.
    mutating func nextElement() {
        separate()
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        // needsComma is true exactly when the container got a member or element.
        if pretty && needsComma { newline() }
        output.append(bracket)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { output.append(UInt8(ascii: ",")) }
        if pretty { newline() }
        needsComma = true
    }

    private mutating func newline() {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private mutating func colon() {
        output.append(UInt8(ascii: ":"))
        if pretty { output.append(UInt8(ascii: " ")) }
    }

    private mutating func key(_ name: StaticString) {
        separate()
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(UInt8(ascii: "\""))
        colon()
    }

    /// Starts a member whose name is only known at run time (escaped like any string).
    package mutating func key(_ name: String) {
        separate()
        Self.writeString(name, to: &output)
        colon()
    }

    /// A string member.
    package mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        Self.writeString(value, to: &output)
    }

    /// An integer member.
    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        Self.writeInteger(value, to: &output)
    }

    /// A boolean member.
    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        output.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A floating-point member (`null` when not finite).
    package mutating func member(_ name: StaticString, _ value: Double) {
        key(name)
        writeDouble(value)
    }

    /// An enumeration member, written as its raw value: the one place its wire spelling is defined.
    package mutating func member<Value: RawRepresentable<String>>(_ name: StaticString, _ value: Value) {
        member(name, value.rawValue)
    }

    /// An array-of-integers member: on the wire, one loop over the values (a compact
    /// `ResolveText` reply's `spans` are thousands of them).
    package mutating func member(_ name: StaticString, integers values: [Int]) {
        key(name)
        guard !pretty else {
            array(values) { writer, value in writer.element(value) }
            needsComma = true
            return
        }
        // The digits written in place into a buffer with room for the longest integers, then
        // appended whole: no capacity or uniqueness check per byte (issue 29 item 4: a compact
        // `ResolveText` reply is five integers per run).
        let capacity = 2 + values.count * (Self.longestInteger + 1)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var at = 0
            buffer[at] = UInt8(ascii: "[")
            at &+= 1
            for index in values.indices {
                if index > 0 {
                    buffer[at] = UInt8(ascii: ",")
                    at &+= 1
                }
                at = Self.writeDigits(values[index], into: buffer, at: at)
            }
            buffer[at] = UInt8(ascii: "]")
            at &+= 1
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<at]))
        }
        needsComma = true
    }

    /// An array-of-strings member.
    package mutating func member(_ name: StaticString, _ values: [String]) {
        key(name)
        array(values) { writer, value in writer.element(value) }
    }

    /// A member whose value is a ``JSONValue`` tree.
    package mutating func member(_ name: StaticString, _ value: JSONValue) {
        key(name)
        write(value)
    }

    /// A member whose value the closure writes (an object or array).
    package mutating func member(_ name: StaticString, _ body: (inout JSONBytesWriter) -> Void) {
        key(name)
        body(&self)
        needsComma = true
    }

    /// An array whose elements the closure writes, one call per element.
    package mutating func array<Element>(_ elements: [Element], _ body: (inout JSONBytesWriter, Element) -> Void) {
        beginArray()
        for element in elements {
            separate()
            body(&self, element)
        }
        endArray()
    }

    /// A string value, e.g. an element inside ``array(_:_:)``.
    package mutating func element(_ value: String) {
        Self.writeString(value, to: &output)
    }

    /// An integer value, e.g. an element inside ``array(_:_:)``.
    package mutating func element(_ value: Int) {
        Self.writeInteger(value, to: &output)
    }

    /// Writes a whole value at the current position (after a key, or as an element or the top level).
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): Self.writeInteger(value, to: &output)
        case .double(let value): writeDouble(value)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            beginArray()
            for element in elements {
                separate()
                write(element)
            }
            endArray()
        case .object(let members):
            begin()
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                key(name)
                write(member)
            }
            end()
        }
        needsComma = true
    }

    private mutating func writeDouble(_ value: Double) {
        output.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
    }

    /// Appends `value` in decimal, as `String(value)` spells it, without making the string: a
    /// compact `ResolveText` reply is mostly integers, five per run (issue 29 item 4).
    static func writeInteger(_ value: Int, to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: decimalLength(value)))
        output.withUnsafeMutableBufferPointer { _ = writeDigits(value, into: $0, at: start) }
    }

    /// The most bytes an `Int` takes in decimal (`Int.min`: a minus sign and 19 digits).
    static let longestInteger = 20

    /// How many bytes `value` takes in decimal, its minus sign included.
    @inline(__always)
    static func decimalLength(_ value: Int) -> Int {
        let magnitude = value.magnitude
        let sign = value < 0 ? 1 : 0
        // Most integers written are offsets into a text of at most 256 KiB: compared, not divided.
        if magnitude < 10 { return sign &+ 1 }
        if magnitude < 100 { return sign &+ 2 }
        if magnitude < 1000 { return sign &+ 3 }
        if magnitude < 10000 { return sign &+ 4 }
        if magnitude < 100_000 { return sign &+ 5 }
        if magnitude < 1_000_000 { return sign &+ 6 }
        var rest = magnitude / 1_000_000
        var length = sign &+ 6
        while rest > 0 {
            rest /= 10
            length &+= 1
        }
        return length
    }

    /// Writes `value` in decimal into `buffer` from `at`, which has room for its
    /// ``decimalLength(_:)`` bytes; returns the position after it.
    @inline(__always)
    static func writeDigits(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        let end = at &+ decimalLength(value)
        if value < 0 { buffer[at] = UInt8(ascii: "-") }
        // The lowest digits last: written from the end backwards, two at a time.
        var magnitude = value.magnitude
        var position = end
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100)
            magnitude /= 100
            let tens = pair / 10
            position &-= 2
            buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
            buffer[position &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
        }
        if magnitude >= 10 {
            let tens = magnitude / 10
            position &-= 2
            buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
            buffer[position &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude &- tens &* 10)
        } else {
            position &-= 1
            buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        return end
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a quoted JSON string, escaping quotes, backslashes and control characters.
    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings need no escaping: copy runs of plain bytes whole, found a word at a time.
            var runStart = 0
            var index = 0
            while index < bytes.count {
                index = PlainWords.skip(bytes, from: index).end
                // The word that is not plain (or the last bytes), a byte at a time.
                let wordEnd = min(index + 8, bytes.count)
                while index < wordEnd {
                    let byte = bytes[index]
                    index += 1
                    guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                    if runStart < index - 1 {
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<(index - 1)]))
                    }
                    runStart = index
                    escape(byte, to: &output)
                }
            }
            if runStart < bytes.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the escape of a quote, a backslash or a control character.
    private static func escape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(0x5C)
        switch byte {
        case 0x22: output.append(0x22)
        case 0x5C: output.append(0x5C)
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
            output.append(UInt8(ascii: "u"))
            output.append(0x30)
            output.append(0x30)
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0xF)])
        }
    }
}

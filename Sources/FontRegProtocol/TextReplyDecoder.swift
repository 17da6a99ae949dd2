import FontRegJSON

/// A direct reader of `ResolveText`'s compact reply as the daemon writes it (issue 29 item 4).
///
/// Parsing the reply into a `JSONValue` tree (an array element per integer of `spans`, five per
/// run) and reading the spans out of it was most of what the client did per run. This reads the
/// parameters' bytes straight into a ``TextReply``, for the shape ``TextReply/write(_:explain:compact:to:)``
/// writes in the compact form only: the members `assumedLanguage` (a string without escapes),
/// `faces` (read with ``JSONParser`` and decoded as the general path does), `missing` and `spans`
/// (arrays of unsigned integers: digits, no leading zero, no fraction or exponent), and `runs`
/// empty, each at most once. Anything else (another member, a repeated one, an escape in a
/// name, a number of another form, a damaged reply) makes it give up with `nil`, and the caller
/// parses the message as any other and reads it with ``TextReply/init(parameters:text:)``:
/// whatever this accepts, that path accepts with the same reply (`TextReplyDecoderTests`).
struct TextReplyDecoder {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The reply whose parameters object is `bytes` (all of them), for a call that asked about
    /// `text`; `nil` when the bytes are not in the subset this reads, or its spans do not fit `text`.
    static func reply(parameters bytes: UnsafeBufferPointer<UInt8>, text: String) -> TextReply? {
        var decoder = TextReplyDecoder(bytes: bytes)
        return decoder.parameters(text: text)
    }

    /// The parameters object: its members, then nothing but white space.
    private mutating func parameters(text: String) -> TextReply? {
        var assumedLanguage: String?
        var faces: [TextReply.Run]?
        var missing: [Int]?
        var spans: [Int]?
        var runs = false
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var first = true
        while true {
            skipWhitespace()
            if take(UInt8(ascii: "}")) { break }
            if !first { guard take(UInt8(ascii: ",")) else { return nil } }
            first = false
            skipWhitespace()
            guard let name = plainString() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch name {
            case "assumedLanguage" where assumedLanguage == nil:
                guard let language = plainString() else { return nil }
                assumedLanguage = language
            case "faces" where faces == nil:
                guard let read = faceList() else { return nil }
                faces = read
            case "missing" where missing == nil:
                guard let read = integers(expected: 0) else { return nil }
                missing = read
            case "spans" where spans == nil:
                // `spans` comes last, at two to six bytes an integer: reserve from the bytes left.
                guard let read = integers(expected: (bytes.count - position) / 4) else { return nil }
                spans = read
            case "runs" where !runs:
                guard take(UInt8(ascii: "[")) else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: "]")) else { return nil }
                runs = true
            default:
                return nil
            }
        }
        skipWhitespace()
        guard position == bytes.count, let faces, let missing, let spans else { return nil }
        return TextReply(faces: faces, spans: spans, missing: missing, assumedLanguage: assumedLanguage, text: text)
    }

    /// `faces`: parsed by ``JSONParser`` (there are few, and their strings may have escapes), each
    /// read as the general path reads it.
    private mutating func faceList() -> [TextReply.Run]? {
        guard let value = try? JSONParser.parseValue(in: bytes, at: &position), let array = value.arrayValue else {
            return nil
        }
        var faces: [TextReply.Run] = []
        faces.reserveCapacity(array.count)
        for element in array {
            guard let face = TextReply.Run(face: element) else { return nil }
            faces.append(face)
        }
        return faces
    }

    /// An array of unsigned integers; `expected` is how many to reserve room for.
    private mutating func integers(expected: Int) -> [Int]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [Int] = []
        values.reserveCapacity(expected)
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return values }
        while true {
            skipWhitespace()
            guard let value = unsigned() else { return nil }
            values.append(value)
            // The daemon writes no spaces: a comma right after the digits is the usual case.
            if take(UInt8(ascii: ",")) { continue }
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return values }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// An unsigned integer: digits, no leading zero, at most 15 of them (the general path's
    /// integers are exact up to 9e15), and no fraction or exponent after them.
    private mutating func unsigned() -> Int? {
        // Local copies and wrapping arithmetic: this runs five times per span. More than 15
        // digits are refused below, so a wrapped value is never returned.
        let count = bytes.count
        var at = position
        var value = 0
        while at < count {
            let digit = bytes[at] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            at &+= 1
        }
        let digits = at - position
        guard digits > 0, digits <= 15, digits == 1 || bytes[position] != UInt8(ascii: "0") else { return nil }
        if at < count {
            switch bytes[at] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        position = at
        return value
    }

    /// A string without escapes or control characters, valid UTF-8.
    private mutating func plainString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        return nil
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }
}

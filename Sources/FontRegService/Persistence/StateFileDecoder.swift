/// A direct reader of the per-user state files the daemon writes (`platform.d/<uid>.json`),
/// for the start-up (issue 29 item 3).
///
/// Parsing each file into a `JSONValue` tree (a dictionary per record, a `String` per key) and
/// then reading the records out of it was 18.5 M of the 27.6 M instructions of a warm start to
/// READY with 1,000 users' 10,000 registrations. This reads the bytes straight into
/// ``RegistrationRecord`` values, for the shape ``PlatformStateStore`` writes only: the members
/// `version`, `uid`, `registrations`, `disabled` and `boldText` (records and entries with
/// their own members only), strings without escapes, unsigned integers without leading zeros.
/// Anything else (an escape, an unknown or repeated member, the `global` of earlier files, a
/// number of another form, a damaged file) makes it give up with
/// `nil`, and the caller reads the file with ``JSONParser`` and ``PlatformStateStore/part(_:of:)``
/// as before: whatever this accepts, that path accepts with the same result, so which files are
/// refused (and moved aside, losing only their uid's state) does not change.
struct StateFileDecoder {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// `uid`'s state as its file `bytes` holds it; `nil` when the file is not in the subset this
    /// reads (then read it with ``JSONParser``: it may still be a good file, or a damaged one).
    static func part(_ bytes: [UInt8], of uid: UInt32) -> PlatformState? {
        bytes.withUnsafeBufferPointer { buffer in
            var decoder = StateFileDecoder(bytes: buffer)
            return decoder.file(of: uid)
        }
    }

    /// The whole file: one object, white space around it.
    private mutating func file(of uid: UInt32) -> PlatformState? {
        var version: UInt64?
        var fileUID: UInt64?
        var records: [RegistrationRecord]?
        var entries: [DisabledEntry]?
        var boldText: Bool?
        skipWhitespace()
        let read = object { reader, name in
            switch name {
            case "version" where version == nil: version = reader.number()
            case "uid" where fileUID == nil: fileUID = reader.number()
            case "registrations" where records == nil:
                records = reader.array { $0.record().flatMap { $0.owner == uid ? $0 : nil } }
            case "disabled" where entries == nil:
                entries = reader.array { $0.entry().flatMap { $0.owner == uid ? $0 : nil } }
            case "boldText" where boldText == nil: boldText = reader.boolean()
            default: return false
            }
            switch name {
            case "version": return version != nil
            case "uid": return fileUID != nil
            case "registrations": return records != nil
            case "disabled": return entries != nil
            default: return boldText != nil
            }
        }
        skipWhitespace()
        guard read, position == bytes.count, version == 1, fileUID == UInt64(uid), let records, let entries else {
            return nil
        }
        var part = PlatformState()
        part.registrations = records
        part.disabled = entries
        if let boldText { part.boldText[uid] = boldText }
        return part
    }

    /// One disabled entry: `kind`, `value` (not empty), `owner`, `systemWide`, each once, nothing
    /// else (the `global` of earlier files is left to the JSON parser).
    private mutating func entry() -> DisabledEntry? {
        var kind: DisabledEntry.Kind?
        var value: String?
        var owner: UInt64?
        var systemWide: Bool?
        let read = object { reader, name in
            switch name {
            case "kind" where kind == nil:
                kind = reader.string().flatMap(DisabledEntry.Kind.init(rawValue:))
                return kind != nil
            case "value" where value == nil:
                value = reader.string()
                return value != nil
            case "owner" where owner == nil:
                owner = reader.number()
                return owner != nil
            case "systemWide" where systemWide == nil:
                systemWide = reader.boolean()
                return systemWide != nil
            default: return false
            }
        }
        guard read, let kind, let value, !value.isEmpty, let owner, owner <= UInt64(UInt32.max), let systemWide
        else { return nil }
        return DisabledEntry(kind: kind, value: value, owner: UInt32(owner), systemWide: systemWide)
    }

    /// One record: `path` (absolute), `owner`, `scope`, `private`, each once, nothing else.
    private mutating func record() -> RegistrationRecord? {
        var path: String?
        var owner: UInt64?
        var scope: RegistrationScope?
        var isPrivate: Bool?
        let read = object { reader, name in
            switch name {
            case "path" where path == nil:
                path = reader.string()
                return path != nil
            case "owner" where owner == nil:
                owner = reader.number()
                return owner != nil
            case "scope" where scope == nil:
                scope = reader.string().flatMap(RegistrationScope.init(name:))
                return scope != nil
            case "private" where isPrivate == nil:
                isPrivate = reader.boolean()
                return isPrivate != nil
            default: return false
            }
        }
        guard read, let path, path.hasPrefix("/"), let owner, owner <= UInt64(UInt32.max), let scope, let isPrivate
        else { return nil }
        return RegistrationRecord(path: path, owner: UInt32(owner), scope: scope, isPrivate: isPrivate)
    }

    /// One object: each member's name goes to `member`, which reads its value and says whether it
    /// took it (`false` for a member it does not know, or a second of one it has).
    ///
    /// - Returns: whether the object was read whole.
    private mutating func object(_ member: (inout StateFileDecoder, String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        var first = true
        while true {
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            if !first { guard take(UInt8(ascii: ",")) else { return false } }
            first = false
            skipWhitespace()
            guard let name = string() else { return false }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            guard member(&self, name) else { return false }
        }
    }

    /// One array, each element read by `element`; `nil` when one is not.
    private mutating func array<Element>(_ element: (inout StateFileDecoder) -> Element?) -> [Element]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return elements }
        while true {
            skipWhitespace()
            guard let next = element(&self) else { return nil }
            elements.append(next)
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return elements }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// A string without escapes or control characters, valid UTF-8.
    private mutating func string() -> String? {
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

    /// An unsigned integer: digits, no leading zero, at most 10 of them (a `UInt32` fits).
    private mutating func number() -> UInt64? {
        let start = position
        var value: UInt64 = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            value = value * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
            position += 1
            if position - start > 10 { return nil }
        }
        let count = position - start
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or exponent follows: not this subset.
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        return value
    }

    /// `true` or `false`.
    private mutating func boolean() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// Takes `word` when the bytes at the position spell it.
    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
        position += count
        return true
    }

    /// Takes `byte` when it is the next one.
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

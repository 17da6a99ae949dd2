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
        var seen = Set<String>()
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var first = true
        while true {
            skipWhitespace()
            if take(UInt8(ascii: "}")) { break }
            if !first { guard take(UInt8(ascii: ",")) else { return nil } }
            first = false
            skipWhitespace()
            guard let name = string(), seen.insert(name).inserted else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch name {
            case "version": version = number()
            case "uid": fileUID = number()
            case "registrations": records = registrations(of: uid)
            case "disabled": entries = disabled(of: uid)
            case "boldText": boldText = boolean()
            default: return nil
            }
            switch name {
            case "version": guard version != nil else { return nil }
            case "uid": guard fileUID != nil else { return nil }
            case "registrations": guard records != nil else { return nil }
            case "disabled": guard entries != nil else { return nil }
            case "boldText": guard boldText != nil else { return nil }
            default: break
            }
        }
        skipWhitespace()
        guard position == bytes.count, version == 1, fileUID == UInt64(uid), let records, let entries else {
            return nil
        }
        var part = PlatformState()
        part.registrations = records
        part.disabled = entries
        if let boldText { part.boldText[uid] = boldText }
        return part
    }

    /// The `registrations` array, every record owned by `uid`.
    private mutating func registrations(of uid: UInt32) -> [RegistrationRecord]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var records: [RegistrationRecord] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return records }
        while true {
            skipWhitespace()
            guard let record = record(), record.owner == uid else { return nil }
            records.append(record)
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return records }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// The `disabled` array, every entry owned by `uid`.
    private mutating func disabled(of uid: UInt32) -> [DisabledEntry]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var entries: [DisabledEntry] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return entries }
        while true {
            skipWhitespace()
            guard let entry = entry(), entry.owner == uid else { return nil }
            entries.append(entry)
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return entries }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// One disabled entry: `kind`, `value` (not empty), `owner`, `systemWide`, each once, nothing
    /// else (the `global` of earlier files is left to the JSON parser).
    private mutating func entry() -> DisabledEntry? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var kind: DisabledEntry.Kind?
        var value: String?
        var owner: UInt64?
        var systemWide: Bool?
        var first = true
        while true {
            skipWhitespace()
            if take(UInt8(ascii: "}")) { break }
            if !first { guard take(UInt8(ascii: ",")) else { return nil } }
            first = false
            skipWhitespace()
            guard let name = string() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch name {
            case "kind" where kind == nil: kind = string().flatMap(DisabledEntry.Kind.init(rawValue:))
            case "value" where value == nil: value = string()
            case "owner" where owner == nil: owner = number()
            case "systemWide" where systemWide == nil: systemWide = boolean()
            default: return nil
            }
            switch name {
            case "kind": guard kind != nil else { return nil }
            case "value": guard value != nil else { return nil }
            case "owner": guard owner != nil else { return nil }
            default: guard systemWide != nil else { return nil }
            }
        }
        guard let kind, let value, !value.isEmpty, let owner, owner <= UInt64(UInt32.max), let systemWide else {
            return nil
        }
        return DisabledEntry(kind: kind, value: value, owner: UInt32(owner), systemWide: systemWide)
    }

    /// One record: `path` (absolute), `owner`, `scope`, `private`, each once, nothing else.
    private mutating func record() -> RegistrationRecord? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var path: String?
        var owner: UInt64?
        var scope: RegistrationScope?
        var isPrivate: Bool?
        var first = true
        while true {
            skipWhitespace()
            if take(UInt8(ascii: "}")) { break }
            if !first { guard take(UInt8(ascii: ",")) else { return nil } }
            first = false
            skipWhitespace()
            guard let name = string() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch name {
            case "path" where path == nil: path = string()
            case "owner" where owner == nil: owner = number()
            case "scope" where scope == nil: scope = string().flatMap(RegistrationScope.init(name:))
            case "private" where isPrivate == nil: isPrivate = boolean()
            default: return nil
            }
            switch name {
            case "path": guard path != nil else { return nil }
            case "owner": guard owner != nil else { return nil }
            case "scope": guard scope != nil else { return nil }
            default: guard isPrivate != nil else { return nil }
            }
        }
        guard let path, path.hasPrefix("/"), let owner, owner <= UInt64(UInt32.max), let scope, let isPrivate else {
            return nil
        }
        return RegistrationRecord(path: path, owner: UInt32(owner), scope: scope, isPrivate: isPrivate)
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

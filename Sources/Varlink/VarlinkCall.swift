import FontRegJSON

/// One Varlink method call: the fully qualified method, its parameters and the call flags.
public struct VarlinkCall: Sendable, Hashable {
    /// The fully qualified method name, e.g. `io.fontreg.Registry.Resolve`.
    public var method: String
    /// The call's parameters (an empty object when the call has none).
    public var parameters: [String: JSONValue]
    /// The caller wants no reply at all.
    public var oneway: Bool
    /// The caller accepts several replies (`continues`).
    public var more: Bool
    /// The caller wants to upgrade the connection to another protocol.
    public var upgrade: Bool

    /// The interface part of ``method`` (everything before the last dot).
    public var interface: String {
        guard let dot = Self.lastDot(in: method) else { return "" }
        return String(decoding: method.utf8[..<dot], as: UTF8.self)
    }

    /// The method part of ``method`` (after the last dot).
    public var methodName: String {
        guard let dot = Self.lastDot(in: method) else { return method }
        return String(decoding: method.utf8[method.utf8.index(after: dot)...], as: UTF8.self)
    }

    /// The last `.` of a method name, found among its UTF-8 bytes (a search by `Character`
    /// cost 4,000 instructions a call).
    private static func lastDot(in method: String) -> String.Index? {
        method.utf8.lastIndex(of: UInt8(ascii: "."))
    }

    /// Creates a call.
    ///
    /// - Parameters:
    ///   - method: the fully qualified method name, `interface.Method`.
    ///   - parameters: the call's parameters.
    ///   - oneway: whether the service must not reply.
    ///   - more: whether the service may send several replies.
    ///   - upgrade: whether the connection leaves Varlink after the reply.
    public init(
        method: String, parameters: [String: JSONValue] = [:], oneway: Bool = false, more: Bool = false,
        upgrade: Bool = false
    ) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// Parses and validates a call from the bytes of one message (without its NUL).
    ///
    /// - Throws: ``VarlinkProtocolError`` when the message is not a well-formed call; the
    ///   connection cannot continue after that.
    package init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(VarlinkProtocolError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(buffer: bytes)
        } catch {
            throw .malformedJSON(error)
        }
        try self.init(message: value)
    }

    /// Validates a call from an already parsed message.
    package init(message value: JSONValue) throws(VarlinkProtocolError) {
        guard case .object(let object) = value else { throw .notAnObject(found: value.typeName) }
        for key in object.keys {
            switch key {
            case "method", "parameters", "oneway", "more", "upgrade": continue
            default: throw .unknownKey(key)
            }
        }
        guard let method = object["method"]?.stringValue else { throw .missingMethod }
        guard let dot = Self.lastDot(in: method), dot != method.startIndex,
            method.utf8.index(after: dot) != method.endIndex
        else { throw .invalidMethodName(method) }
        var parameters: [String: JSONValue] = [:]
        switch object["parameters"] {
        case nil, .null?: break
        case .object(let members)?: parameters = members
        default: throw .invalidField(name: "parameters", expected: "an object")
        }
        func flag(_ name: String) throws(VarlinkProtocolError) -> Bool {
            switch object[name] {
            case nil, .null?: return false
            case .bool(let value)?: return value
            default: throw .invalidField(name: name, expected: "true or false")
            }
        }
        let oneway = try flag("oneway")
        let more = try flag("more")
        let upgrade = try flag("upgrade")
        if [oneway, more, upgrade].filter({ $0 }).count > 1 { throw .conflictingFlags }
        self.init(method: method, parameters: parameters, oneway: oneway, more: more, upgrade: upgrade)
    }

    /// The call as a JSON message, NUL included.
    public func serialized() -> [UInt8] {
        var object: [String: JSONValue] = ["method": .string(method)]
        if !parameters.isEmpty { object["parameters"] = .object(parameters) }
        if oneway { object["oneway"] = true }
        if more { object["more"] = true }
        if upgrade { object["upgrade"] = true }
        var bytes = JSONValue.object(object).serialized()
        bytes.append(0)
        return bytes
    }
}

/// A JSON value as Varlink messages carry it: parsed from and written to UTF-8 bytes.
///
/// Objects keep their keys in a dictionary and are written with sorted keys, so the
/// same value always serializes to the same bytes. Integers and floating-point numbers
/// are kept apart so that `600` stays `600` on the wire.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits in an `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; key order is not kept.
    case object([String: JSONValue])

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer or a floating-point number with no fraction.
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value == value.rounded() && abs(value) < 9e15: return Int(value)
        default: return nil
        }
    }

    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A short name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "float"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// A string from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number from an integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A Boolean from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A number from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// An array from an array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
    /// An object from a dictionary literal; a later duplicate key wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object: [String: JSONValue] = [:]
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { String(decoding: serialized(), as: UTF8.self) }
}

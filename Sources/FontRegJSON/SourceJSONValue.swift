/// A parsed JSON value that remembers where it was written.
///
/// Objects keep their members in file order together with the position of each key,
/// so that a reader can point at the exact token a person has to fix.
package indirect enum SourceJSONValue: Sendable, Hashable {
    case null(at: SourcePosition)
    case bool(Bool, at: SourcePosition)
    /// A number, with the literal as written (`653`, `1.5e2`) so integers stay exact.
    case number(Double, literal: String, at: SourcePosition)
    case string(String, at: SourcePosition)
    case array([SourceJSONValue], at: SourcePosition)
    case object([SourceJSONMember], at: SourcePosition)

    /// Where the value starts in the source.
    package var position: SourcePosition {
        switch self {
        case .null(let at), .bool(_, let at), .number(_, _, let at), .string(_, let at),
            .array(_, let at), .object(_, let at):
            at
        }
    }

    /// The JSON kind as a word for error messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string, when this is a string.
    package var stringValue: String? {
        if case .string(let value, _) = self { value } else { nil }
    }

    /// The number, when this is a number.
    package var doubleValue: Double? {
        if case .number(let value, _, _) = self { value } else { nil }
    }

    /// The number as an integer, when this is a number without a fractional part.
    package var intValue: Int? {
        guard case .number(let value, _, _) = self, value == value.rounded(),
            abs(value) < 9.0e15
        else { return nil }
        return Int(value)
    }

    /// The boolean, when this is `true` or `false`.
    package var boolValue: Bool? {
        if case .bool(let value, _) = self { value } else { nil }
    }

    /// The elements, when this is an array.
    package var arrayValue: [SourceJSONValue]? {
        if case .array(let values, _) = self { values } else { nil }
    }

    /// The members in file order, when this is an object.
    package var members: [SourceJSONMember]? {
        if case .object(let members, _) = self { members } else { nil }
    }

    /// Whether this is `null`.
    var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The value of the member named `key`, when this is an object that has one.
    package subscript(key: String) -> SourceJSONValue? {
        members?.first(where: { $0.key == key })?.value
    }
}

/// One `"key": value` pair of a JSON object.
package struct SourceJSONMember: Sendable, Hashable {
    /// The key, unescaped.
    package var key: String
    /// Where the key's opening quote is.
    package var keyPosition: SourcePosition
    /// The value.
    package var value: SourceJSONValue

    package init(key: String, keyPosition: SourcePosition, value: SourceJSONValue) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

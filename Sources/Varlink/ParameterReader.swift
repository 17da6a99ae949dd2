import FontRegJSON

/// Reads a call's parameters by name and type, answering mistakes with `InvalidParameter`.
package struct ParameterReader: Sendable {
    /// The call's parameters.
    package let parameters: [String: JSONValue]

    /// Checks that every parameter of `call` is one of `allowed`.
    ///
    /// - Throws: `org.varlink.service.InvalidParameter` naming the first unknown parameter.
    package init(_ call: VarlinkCall, allowed: Set<String>) throws(VarlinkError) {
        if call.parameters.keys.contains(where: { !allowed.contains($0) }) {
            // Name the first unknown one in sorted order, so the answer does not depend on hashing.
            let first = call.parameters.keys.filter { !allowed.contains($0) }.min()!
            throw VarlinkError.invalidParameter(first)
        }
        self.parameters = call.parameters
    }

    private func present(_ name: String) -> JSONValue? {
        guard let value = parameters[name], value != .null else { return nil }
        return value
    }

    /// The longest string parameter accepted when a method names no tighter bound, in UTF-8
    /// bytes: a path (`PATH_MAX`). Every string a call carries is bounded, so no caller's input
    /// makes the work done with it (lookups, suggestions, replies that echo it) grow without end.
    static let defaultMaximumStringBytes = 4096

    /// A required string parameter of at most `maximumBytes` UTF-8 bytes.
    ///
    /// - Throws: `InvalidParameter(parameter)` when absent or not a string; with `maximumBytes`
    ///   when longer than that.
    package func string(_ name: String, maximumBytes: Int = defaultMaximumStringBytes) throws(VarlinkError) -> String {
        guard let value = try optionalString(name, maximumBytes: maximumBytes) else {
            throw VarlinkError.invalidParameter(name)
        }
        return value
    }

    /// An optional string parameter (`nil` when absent or null) of at most `maximumBytes` UTF-8 bytes.
    ///
    /// - Throws: `InvalidParameter(parameter)` when not a string; with `maximumBytes` when longer than that.
    package func optionalString(_ name: String, maximumBytes: Int = defaultMaximumStringBytes) throws(VarlinkError)
        -> String?
    {
        guard let value = present(name) else { return nil }
        guard let text = value.stringValue else { throw VarlinkError.invalidParameter(name) }
        guard text.utf8.count <= maximumBytes else {
            throw VarlinkError.parameterTooLong(name, maximumBytes: maximumBytes)
        }
        return text
    }

    /// An optional boolean parameter (`nil` when absent or null).
    package func optionalBool(_ name: String) throws(VarlinkError) -> Bool? {
        guard let value = present(name) else { return nil }
        guard let flag = value.boolValue else { throw VarlinkError.invalidParameter(name) }
        return flag
    }

    /// An optional integer parameter (`nil` when absent or null).
    func optionalInt(_ name: String) throws(VarlinkError) -> Int? {
        guard let value = present(name) else { return nil }
        guard let number = value.intValue else { throw VarlinkError.invalidParameter(name) }
        return number
    }

    /// An optional number parameter (`nil` when absent or null); integers are accepted as numbers.
    package func optionalDouble(_ name: String) throws(VarlinkError) -> Double? {
        guard let value = present(name) else { return nil }
        guard let number = value.doubleValue, number.isFinite else { throw VarlinkError.invalidParameter(name) }
        return number
    }

    /// A required array of at most `maximumCount` strings of at most `maximumBytes` UTF-8 bytes each.
    ///
    /// - Throws: `InvalidParameter(parameter)`, with the limit passed when one is.
    package func stringArray(
        _ name: String, maximumCount: Int, maximumBytes: Int = defaultMaximumStringBytes
    ) throws(VarlinkError) -> [String] {
        guard let elements = present(name)?.arrayValue else { throw VarlinkError.invalidParameter(name) }
        guard elements.count <= maximumCount else {
            throw VarlinkError.tooManyElements(name, maximumCount: maximumCount)
        }
        var strings: [String] = []
        for element in elements {
            guard let text = element.stringValue else { throw VarlinkError.invalidParameter(name) }
            guard text.utf8.count <= maximumBytes else {
                throw VarlinkError.parameterTooLong(name, maximumBytes: maximumBytes)
            }
            strings.append(text)
        }
        return strings
    }

    /// A required array of at most `maximumCount` objects.
    ///
    /// - Throws: `InvalidParameter(parameter)`, with `maximumCount` when there are more.
    package func objectArray(_ name: String, maximumCount: Int) throws(VarlinkError) -> [[String: JSONValue]] {
        guard let elements = present(name)?.arrayValue else { throw VarlinkError.invalidParameter(name) }
        guard elements.count <= maximumCount else {
            throw VarlinkError.tooManyElements(name, maximumCount: maximumCount)
        }
        var objects: [[String: JSONValue]] = []
        for element in elements {
            guard let object = element.objectValue else { throw VarlinkError.invalidParameter(name) }
            objects.append(object)
        }
        return objects
    }

    /// The longest weight text accepted, in bytes ("extra-light", "1000", with room to spare).
    package static let maximumWeightBytes = 32

    /// A weight given as a string ("600", "semibold") or, leniently, as a JSON number.
    ///
    /// - Returns: the raw text, or `nil` when absent.
    package func optionalWeightText(_ name: String) throws(VarlinkError) -> String? {
        guard let value = present(name) else { return nil }
        switch value {
        case .string(let text):
            // A weight is a number or a name such as "semibold"; nothing longer is one.
            guard text.utf8.count <= ParameterReader.maximumWeightBytes else {
                throw VarlinkError.parameterTooLong(name, maximumBytes: ParameterReader.maximumWeightBytes)
            }
            return text
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        default: throw VarlinkError.invalidParameter(name)
        }
    }
}

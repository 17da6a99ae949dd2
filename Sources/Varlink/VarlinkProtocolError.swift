import FontRegJSON

/// A message that breaks the Varlink wire protocol; the server answers it with an error and closes the connection.
public enum VarlinkProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message is not valid JSON.
    case malformedJSON(JSONParseError)
    /// The message is JSON but not an object.
    case notAnObject(found: String)
    /// The message has a top-level key Varlink does not define.
    case unknownKey(String)
    /// The message has no `method` string.
    case missingMethod
    /// The method name is not `interface.Method`.
    case invalidMethodName(String)
    /// A top-level field has the wrong JSON type.
    case invalidField(name: String, expected: String)
    /// More than one of `oneway`, `more` and `upgrade` is true.
    case conflictingFlags
    /// A message (or the unterminated rest of one) is longer than the configured limit.
    case messageTooLarge(limit: Int)

    /// What is wrong with the message, for a person.
    public var description: String {
        switch self {
        case .malformedJSON(let error):
            return error.description
        case .notAnObject(let found):
            return "a Varlink message must be a JSON object, not \(found)"
        case .unknownKey(let key):
            return "unknown top-level key '\(key)'; a call may only have method, parameters, oneway, more and upgrade"
        case .missingMethod:
            return "the call has no 'method' string; send {\"method\": \"interface.Method\", \"parameters\": {…}}"
        case .invalidMethodName(let name):
            return "'\(name)' is not a fully qualified method name such as io.fontreg.Registry.Resolve"
        case .invalidField(let name, let expected):
            return "the top-level field '\(name)' must be \(expected)"
        case .conflictingFlags:
            return "at most one of oneway, more and upgrade may be true"
        case .messageTooLarge(let limit):
            return
                "message longer than \(limit) bytes without a terminating NUL; split the request (ResolveMany in smaller batches)"
        }
    }
}

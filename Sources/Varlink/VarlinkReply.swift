import FontRegJSON

/// One Varlink reply: parameters, or an error name with its parameters, and whether more replies follow.
public struct VarlinkReply: Sendable, Hashable {
    /// The reply's parameters (the error's parameters for an error reply).
    public var parameters: [String: JSONValue]
    /// More replies to the same call follow (only for calls made with `more`).
    public var continues: Bool
    /// The fully qualified error name, for an error reply.
    public var error: String?

    /// Creates a reply.
    ///
    /// - Parameters:
    ///   - parameters: the reply's parameters.
    ///   - continues: whether more replies follow (a `more` call).
    ///   - error: the fully qualified error name, for an error reply.
    public init(parameters: [String: JSONValue] = [:], continues: Bool = false, error: String? = nil) {
        self.parameters = parameters
        self.continues = continues
        self.error = error
    }

    /// An error reply for `error`.
    public init(error: VarlinkError) {
        self.init(parameters: error.parameters, continues: false, error: error.name)
    }

    /// The reply as a JSON message, NUL included.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return bytes
    }

    /// Appends the reply as a JSON message, NUL included, to `output`.
    package func write(to output: inout [UInt8]) {
        var object: [String: JSONValue] = ["parameters": .object(parameters)]
        if continues { object["continues"] = true }
        if let error { object["error"] = .string(error) }
        JSONValue.object(object).write(to: &output)
        output.append(0)
    }

    /// Appends a reply whose parameters are already serialized as a JSON object, NUL included.
    package static func write(encodedParameters parameters: [UInt8], to output: inout [UInt8]) {
        output.append(contentsOf: #"{"parameters":"#.utf8)
        output.append(contentsOf: parameters)
        output.append(contentsOf: [UInt8(ascii: "}"), 0])
    }

    /// Parses a reply from the bytes of one message (without its NUL), ignoring unknown keys.
    ///
    /// - Throws: ``VarlinkProtocolError`` when the message is not a JSON object.
    package init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(VarlinkProtocolError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(buffer: bytes)
        } catch {
            throw .malformedJSON(error)
        }
        guard case .object(let object) = value else { throw .notAnObject(found: value.typeName) }
        self.init(
            parameters: object["parameters"]?.objectValue ?? [:],
            continues: object["continues"]?.boolValue ?? false,
            error: object["error"]?.stringValue)
    }
}

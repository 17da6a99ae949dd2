import FontRegJSON

/// A Varlink error reply: a fully qualified error name and parameters a program can act on.
public struct VarlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fully qualified name, e.g. `io.fontreg.Registry.FamilyNotFound`.
    public var name: String
    /// The error's parameters.
    public var parameters: [String: JSONValue]

    /// Creates an error reply.
    ///
    /// - Parameters:
    ///   - name: the fully qualified error name, `interface.Error`.
    ///   - parameters: the error's parameters.
    public init(_ name: String, _ parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// The error name and its parameters.
    public var description: String {
        if let message = parameters["message"]?.stringValue { return "\(name): \(message)" }
        if parameters.isEmpty { return name }
        return "\(name) \(JSONValue.object(parameters))"
    }

    /// The interface of the standard errors every Varlink service knows.
    public static let serviceInterface = "org.varlink.service"

    /// `org.varlink.service.InterfaceNotFound(interface)`.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InterfaceNotFound", ["interface": .string(interface)])
    }

    /// `org.varlink.service.MethodNotFound(method)`.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotFound", ["method": .string(method)])
    }

    /// `org.varlink.service.MethodNotImplemented(method)`.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotImplemented", ["method": .string(method)])
    }

    /// `org.varlink.service.InvalidParameter(parameter)`.
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InvalidParameter", ["parameter": .string(parameter)])
    }

    /// `org.varlink.service.InvalidParameter(parameter)` for a string or array longer than the
    /// service accepts, with the limit as `maximumBytes` (or `maximumCount` for an array).
    ///
    /// The standard error has only `parameter`; the extra field tells a person which limit was
    /// passed, and clients that only read `parameter` still understand the reply.
    public static func parameterTooLong(_ parameter: String, maximumBytes: Int) -> VarlinkError {
        VarlinkError(
            "org.varlink.service.InvalidParameter",
            ["parameter": .string(parameter), "maximumBytes": .int(maximumBytes)])
    }

    /// `org.varlink.service.InvalidParameter(parameter)` for an array with more elements than the
    /// service accepts, with the limit as `maximumCount`.
    public static func tooManyElements(_ parameter: String, maximumCount: Int) -> VarlinkError {
        VarlinkError(
            "org.varlink.service.InvalidParameter",
            ["parameter": .string(parameter), "maximumCount": .int(maximumCount)])
    }

    /// `org.varlink.service.ExpectedMore()`.
    public static let expectedMore = VarlinkError("org.varlink.service.ExpectedMore")
}

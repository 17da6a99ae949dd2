/// A failed system call: what was attempted, on what, and the errno it returned.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call or operation, e.g. `bind`.
    public let operation: String
    /// The path or other subject, when there is one.
    public let subject: String?
    /// The error number.
    public let errno: Errno

    /// Creates an error from a failed call.
    ///
    /// - Parameters:
    ///   - operation: the call or operation, e.g. `bind`.
    ///   - subject: the path or other subject, when there is one.
    ///   - errno: the error number the call left.
    public init(_ operation: String, subject: String? = nil, errno: Errno) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
    }

    /// Creates an error from a raw C errno, for the wrappers of this module.
    init(_ operation: String, subject: String? = nil, errno: Int32) {
        self.init(operation, subject: subject, errno: Errno(rawValue: errno))
    }

    /// The same error about another subject (a path the caller knows and the call did not).
    ///
    /// - Parameter subject: the path or other subject to name.
    /// - Returns: the error with `subject`.
    public func about(_ subject: String) -> SystemError {
        SystemError(operation, subject: subject, errno: errno)
    }

    /// The operation, its subject and the errno in words.
    public var description: String {
        let message = errno.message
        if let subject { return "\(operation) \(subject): \(message)" }
        return "\(operation): \(message)"
    }
}

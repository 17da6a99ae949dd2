import Glibc

/// A failed system call: what was attempted, on what, and the errno it returned.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call or operation, e.g. `bind`.
    public let operation: String
    /// The path or other subject, when there is one.
    public let subject: String?
    /// The errno value.
    public let errno: Int32

    /// Creates an error from a failed call.
    ///
    /// - Parameters:
    ///   - operation: the call or operation, e.g. `bind`.
    ///   - subject: the path or other subject, when there is one.
    ///   - errno: the errno the call left.
    public init(_ operation: String, subject: String? = nil, errno: Int32) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
    }

    /// The operation, its subject and the errno in words.
    public var description: String {
        let message = String(cString: strerror(errno))
        if let subject { return "\(operation) \(subject): \(message)" }
        return "\(operation): \(message)"
    }
}

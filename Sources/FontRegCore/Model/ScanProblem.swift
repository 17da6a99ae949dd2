import FontRegJSON
import FontRegSystem

/// A file or folder the scanner could not use, and why; the rest of the scan goes on.
public struct ScanProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The path as it was found.
    public var path: String
    /// What was wrong, in words a person can act on.
    public var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

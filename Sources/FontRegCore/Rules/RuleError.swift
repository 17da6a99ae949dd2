/// A problem in a rule file: which file, where, and what is wrong.
public struct RuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule file.
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?
    /// What is wrong and how to fix it.
    public var message: String

    package init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, as compilers print it.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): \(message)"
    }
}

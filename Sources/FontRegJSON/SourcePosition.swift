/// A place in a text file: 1-based line and column, and the byte offset.
///
/// Columns count Unicode scalars from the start of the line, as most editors do.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1.
    public var column: Int
    /// The byte offset from the start of the file, starting at 0.
    public var offset: Int

    public init(line: Int, column: Int, offset: Int = 0) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`, the form compilers and editors understand.
    public var description: String { "\(line):\(column)" }
}

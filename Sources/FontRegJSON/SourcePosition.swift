/// A place in a text file: 1-based line and column, and the byte offset.
///
/// Columns count Unicode scalars from the start of the line, as most editors do.
package struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, starting at 1.
    package var line: Int
    /// The column, starting at 1.
    package var column: Int
    /// The byte offset from the start of the file, starting at 0.
    package var offset: Int

    package init(line: Int, column: Int, offset: Int = 0) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`, the form compilers and editors understand.
    package var description: String { "\(line):\(column)" }
}

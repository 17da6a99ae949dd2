/// Why a JSON text could not be parsed, and where.
package struct SourceJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file the text came from, when known.
    package var file: String?
    /// Where the problem is.
    package var position: SourcePosition
    /// What is wrong, in plain words, with a hint how to fix it.
    package var message: String

    package init(file: String? = nil, position: SourcePosition, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`, the form editors can jump to.
    package var description: String {
        "\(file ?? "<input>"):\(position.line):\(position.column): \(message)"
    }
}

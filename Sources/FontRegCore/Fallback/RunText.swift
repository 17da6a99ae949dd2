/// A run's text: a string of its own, or a stretch of a whole text by UTF-8 offsets, cut when
/// read (issue 29 item 4: a text of hundreds of runs made a string per run, and the compact
/// `ResolveText` reply reads none of them).
package struct RunText: Sendable {
    /// The text, or the whole text the stretch is cut from.
    private let string: String
    /// The stretch's UTF-8 offsets in `string`; `nil` when `string` is the text.
    private let range: Range<Int>?

    /// A text of its own.
    package init(_ text: String) {
        string = text
        range = nil
    }

    /// The stretch of `whole` between UTF-8 offsets, which lie on its scalar boundaries.
    package init(_ whole: String, utf8 range: Range<Int>) {
        string = whole
        self.range = range
    }

    /// The text.
    package var text: String {
        guard let range else { return string }
        let utf8 = string.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let to = utf8.index(from, offsetBy: range.count)
        return String(string[from..<to])
    }
}

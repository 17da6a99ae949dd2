/// An aligned text table: a header row and rows of cells, columns padded to their widest cell.
package struct Table: Sendable {
    /// The column headings.
    package var headers: [String]
    /// The rows; each has as many cells as there are headers.
    package var rows: [[String]] = []
    /// Columns whose cells are aligned to the right (numbers).
    package var rightAligned: Set<Int> = []

    package init(headers: [String], rightAligned: Set<Int> = []) {
        self.headers = headers
        self.rightAligned = rightAligned
    }

    /// Adds a row.
    package mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table as lines, two spaces between columns, no trailing spaces.
    ///
    /// - Parameter header: styles the header cells (e.g. bold on a terminal); widths ignore it.
    package func render(header: (String) -> String = { $0 }) -> [String] {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String], style: (String) -> String) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                let last = i == cells.count - 1
                if rightAligned.contains(i) {
                    parts.append(pad + style(cell))
                } else {
                    parts.append(style(cell) + (last ? "" : pad))
                }
            }
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        return [line(headers, style: header)] + rows.map { line($0, style: { $0 }) }
    }
}

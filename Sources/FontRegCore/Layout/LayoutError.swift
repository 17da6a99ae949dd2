/// Why a layout answer cannot be computed.
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The face record has no metrics (`unitsPerEm` is 0): built without its file, or read from
    /// a font without a `head` table.
    case noMetrics(postscriptName: String)
    /// The font size is not a finite number above zero.
    case invalidSize(Double)
    /// The line height is not a finite number above zero.
    case invalidLineHeight(Double)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .noMetrics(let name):
            "\(name) has no metrics (units per em 0); rescan its file with this fontreg to read them"
        case .invalidSize(let size):
            "the size \(size) is not a number of pixels above 0; give --size 16"
        case .invalidLineHeight(let height):
            "the line height \(height) is not above 0; give --line-height 24px, 1.5 or 150%"
        }
    }
}

/// A face's coverage with the last stretch it looked up remembered (issue 29 item 4): text keeps
/// to a few blocks, so most code points fall in the range (or the gap between ranges) the one
/// before fell in, and cost two comparisons instead of a bisection.
struct CoverageProbe {
    /// The coverage's flat ranges (``CharacterCoverage/ranges``).
    private let ranges: [UInt32]
    /// The stretch last found, inclusive: all mapped (`inside`) or all unmapped. Empty at first.
    private var low: UInt32 = 1
    private var high: UInt32 = 0
    private var inside = false

    /// A probe of a face's coverage.
    init(_ coverage: CharacterCoverage) {
        ranges = coverage.ranges
    }

    /// A probe of no coverage.
    init() {
        ranges = []
    }

    /// Whether the face maps the code point (as ``CharacterCoverage/contains(_:)-(UInt32)``).
    @inline(__always)
    mutating func contains(_ codePoint: UInt32) -> Bool {
        if codePoint >= low && codePoint <= high { return inside }
        return lookUp(codePoint)
    }

    /// Bisects for the code point and remembers the range or gap it lies in.
    private mutating func lookUp(_ codePoint: UInt32) -> Bool {
        ranges.withUnsafeBufferPointer { flat in
            var first = 0
            var last = flat.count / 2
            while first < last {
                let middle = (first + last) / 2
                if flat[middle * 2 + 1] < codePoint { first = middle + 1 } else { last = middle }
            }
            if first < flat.count / 2 && flat[first * 2] <= codePoint {
                (low, high, inside) = (flat[first * 2], flat[first * 2 + 1], true)
            } else {
                low = first > 0 ? flat[first * 2 - 1] + 1 : 0
                high = first < flat.count / 2 ? flat[first * 2] - 1 : .max
                inside = false
            }
            return inside
        }
    }

    /// Whether the face maps every scalar of a cluster a renderer draws (as
    /// ``CharacterCoverage/covers(_:)``: default-ignorable scalars are left out).
    @inline(__always)
    mutating func covers<S: Sequence<Unicode.Scalar>>(_ scalars: S, _ classes: ScalarClasses.Table) -> Bool {
        for scalar in scalars where !contains(scalar.value) && !classes.isIgnorable(scalar) {
            return false
        }
        return true
    }
}

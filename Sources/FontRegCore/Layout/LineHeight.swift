import Foundation

/// A line height as a design tool or style sheet writes it: pixels, a multiple of the font
/// size, or a percentage of it.
public enum LineHeight: Sendable, Hashable, CustomStringConvertible {
    /// An absolute line height in pixels (`24px`).
    case pixels(Double)
    /// A multiple of the font size (`1.5`), as CSS's unitless `line-height` and Flutter's `height`.
    case multiple(Double)
    /// A percentage of the font size (`150%`), as Figma's PERCENT line height since 2019.
    case percent(Double)

    /// Parses `24px`, `1.5` or `150%`.
    ///
    /// - Parameter text: the value; surrounding spaces are ignored.
    /// - Returns: `nil` unless it is a finite, positive number with one of those forms.
    public init?(parsing text: String) {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        func number(_ digits: Substring) -> Double? {
            guard let number = Double(digits), number.isFinite, number > 0 else { return nil }
            return number
        }
        if value.hasSuffix("px") {
            guard let n = number(value.dropLast(2)) else { return nil }
            self = .pixels(n)
        } else if value.hasSuffix("%") {
            guard let n = number(value.dropLast()) else { return nil }
            self = .percent(n)
        } else {
            guard let n = number(Substring(value)) else { return nil }
            self = .multiple(n)
        }
    }

    /// The line height in pixels for a font size in pixels.
    ///
    /// - Parameter size: the font size in pixels.
    /// - Returns: the line height in pixels.
    public func pixels(size: Double) -> Double {
        switch self {
        case .pixels(let value): value
        case .multiple(let value): value * size
        case .percent(let value): value / 100 * size
        }
    }

    /// The value as it was written: `24px`, `1.5` or `150%`.
    public var description: String {
        switch self {
        case .pixels(let value): "\(LayoutAnswer.format(value))px"
        case .multiple(let value): LayoutAnswer.format(value)
        case .percent(let value): "\(LayoutAnswer.format(value))%"
        }
    }
}

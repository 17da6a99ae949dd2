import FontRegCore
import Foundation

extension AuditWiring {
    /// One text style of the design system with the shipped face that draws it and, when the style gives a
    /// size and a line height, the layout answer every emitter writes from (issue 27, `docs/layout.md`).
    package struct Style: Sendable, Hashable {
        /// The style as read from the inputs.
        package var use: TypographyUse
        /// The CSS class name, from the token path (`text.bodyStrong` → `text-body-strong`): unique, `[a-z0-9-]`.
        package var className: String
        /// The family as the tokens name it, when one of its faces ships.
        package var family: String?
        /// The shipped face that draws the style.
        package var face: Face?
        /// Where each platform puts the baseline, when the style has a size, a line height and a face with metrics.
        package var layout: LayoutAnswer?
    }

    /// The text styles in input order, each with its face and layout answer; one per class name.
    package var styles: [Style] {
        var taken = Set<String>()
        return uses.map { use in
            let base = Self.className(use.origin.name)
            var name = base
            var counter = 2
            while !taken.insert(name).inserted {
                name = "\(base)-\(counter)"
                counter += 1
            }
            let primary = FamilyStack(use.familyStack).primary
            let family = families.first { $0.name == primary }
            let face = family.flatMap { Self.face(for: use, in: $0) }
            var layout: LayoutAnswer?
            if let face, let size = use.size, let lineHeight = use.lineHeight {
                // A variable face draws the style at its weight: MVAR's metrics there (issue 27).
                var record = face.record
                let settings = face.variationSettings(for: use.weight.value)
                record.metrics = record.metrics(at: settings.map { VariationSetting(tag: $0.tag, value: $0.value) })
                layout = try? LayoutAnswer(face: record, size: size, lineHeight: lineHeight)
            }
            return Style(use: use, className: name, family: family?.name, face: face, layout: layout)
        }
    }

    /// The CSS class of a token path: kebab case, starting with a letter (`style-` put before a digit).
    static func className(_ path: String) -> String {
        let name = CSSFontFaceEmitter.propertyName(path)
        guard let first = name.unicodeScalars.first, CharacterSet.lowercaseLetters.contains(first) else {
            return "style-" + (name.isEmpty ? "unnamed" : name)
        }
        return name
    }

    /// The shipped face of the style's weight and style: the face serving or standing in for the weight,
    /// else (a weight the audit found missing) the nearest shipped weight of the style.
    static func face(for use: TypographyUse, in family: Family) -> Face? {
        let weight = use.weight.value
        let sameStyle = family.faces.filter { $0.style == use.style }
        if let exact = sameStyle.first(where: { $0.weights.contains(weight) || $0.standsInFor.contains(weight) }) {
            return exact
        }
        return sameStyle.min {
            abs(($0.declaredWeights.first ?? 0) - weight) < abs(($1.declaredWeights.first ?? 0) - weight)
        }
    }
}

extension LineHeight {
    /// The value as CSS writes it: `24px`, `1.5`, `150%`.
    var cssValue: String { description }
}

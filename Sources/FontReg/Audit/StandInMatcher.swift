/// Picks the face that would stand in for a missing one: CSS Fonts Level 4 matching inside a family.
///
/// Width first (normal, else the nearest), then style (italic prefers italic, then oblique, then
/// normal), then weight: for a wanted weight from 400 to 500, heavier faces up to 500, then lighter,
/// then heavier than 500; below 400 lighter first; above 500 heavier first. A variable face whose
/// range covers the weight matches it.
enum StandInMatcher {
    static func match(weight: Int, style: FontStyle, in faces: [FaceRecord]) -> FaceRecord? {
        guard !faces.isEmpty else { return nil }
        let bestWidth = faces.map { abs($0.width - 5) }.min() ?? 0
        let sameWidth = faces.filter { abs($0.width - 5) == bestWidth }
        let order: [FontStyle]
        switch style {
        case .italic: order = [.italic, .oblique, .normal]
        case .oblique: order = [.oblique, .italic, .normal]
        case .normal: order = [.normal, .oblique, .italic]
        }
        guard let group = order.lazy.map({ wanted in sameWidth.filter { $0.style == wanted } }).first(where: { !$0.isEmpty }) else {
            return nil
        }
        return matchWeight(weight, in: group)
    }

    /// CSS Fonts 4 weight matching among faces of one style.
    static func matchWeight(_ desired: Int, in faces: [FaceRecord]) -> FaceRecord? {
        if let exact = faces.first(where: { $0.weight == desired && $0.axes.isEmpty }) ?? faces.first(where: { $0.weightRange.contains(desired) }) {
            return exact
        }
        let heavier = faces.filter { $0.weightRange.lowerBound > desired }.sorted { $0.weightRange.lowerBound < $1.weightRange.lowerBound }
        let lighter = faces.filter { $0.weightRange.upperBound < desired }.sorted { $0.weightRange.upperBound > $1.weightRange.upperBound }
        if (400...500).contains(desired) {
            if let upTo500 = heavier.first(where: { $0.weightRange.lowerBound <= 500 }) { return upTo500 }
            return lighter.first ?? heavier.first
        }
        if desired < 400 { return lighter.first ?? heavier.first }
        return heavier.first ?? lighter.first
    }

    /// The step of the nine that CSS matching picks for an off-grid weight in a complete static family.
    ///
    /// 401–499 → 500; below 400 the step below (under 100 → 100); above 500 the step above (over 900 → 900).
    static func gridStep(for weight: Int) -> Int {
        if weight % 100 == 0 && (100...900).contains(weight) { return weight }
        if (400...500).contains(weight) { return 500 }
        if weight < 400 { return max(100, (weight / 100) * 100) }
        return min(900, ((weight + 99) / 100) * 100)
    }
}

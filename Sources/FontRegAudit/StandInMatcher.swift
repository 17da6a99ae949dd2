import FontRegCore

/// Picks the face that would stand in for a missing one, and the step an off-grid weight falls to.
///
/// Matching is the core's CSS Fonts Level 4 rule (``WeightMatcher``): width first (normal, else
/// the nearest), then style (italic prefers italic, then oblique, then normal), then weight.
enum StandInMatcher {
    /// The face CSS matching picks in the family for a weight and style.
    static func match(weight: Int, style: FontStyle, in faces: [FaceRecord]) -> FaceRecord? {
        let widthGroup = WeightMatcher.preferredWidth(faces)
        let order: [FontStyle] =
            style == .oblique ? [.oblique, .italic, .normal] : WeightMatcher.styleOrder(italic: style == .italic)
        for wanted in order {
            let group = widthGroup.filter { $0.style == wanted }
            if !group.isEmpty { return WeightMatcher.cssMatch(group, desired: weight) }
        }
        return nil
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

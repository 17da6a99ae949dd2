/// Chooses a face inside a family: CSS Fonts Level 4 (width, then style, then weight), or Android's nearest rule.
package enum WeightMatcher {
    /// The faces of the width CSS prefers for a normal-width request: normal, else the
    /// widest narrower ones, else the narrowest wider ones.
    package static func preferredWidth(_ faces: [FaceRecord]) -> [FaceRecord] {
        if faces.contains(where: { $0.width == 5 }) { return faces.filter { $0.width == 5 } }
        if let narrower = faces.filter({ $0.width < 5 }).map(\.width).max() {
            return faces.filter { $0.width == narrower }
        }
        let wider = faces.map(\.width).min()
        return faces.filter { $0.width == wider }
    }

    /// The style CSS falls back through: italic → oblique → normal; normal → oblique → italic.
    package static func styleOrder(italic: Bool) -> [FontStyle] {
        italic ? [.italic, .oblique, .normal] : [.normal, .oblique, .italic]
    }

    /// The face whose weight CSS Fonts 4 picks for `desired` among faces of one style.
    ///
    /// A face whose weight range contains `desired` (a variable face) counts as that weight.
    /// Otherwise: desired in 400…500 → heavier up to 500 ascending, then lighter descending,
    /// then heavier than 500 ascending; below 400 → lighter descending, then heavier
    /// ascending; above 500 → heavier ascending, then lighter descending.
    package static func cssMatch(_ faces: [FaceRecord], desired: Int) -> FaceRecord? {
        guard !faces.isEmpty else { return nil }
        // One pass, no copies: rank each face (lower is better) and keep the best index.
        // Rank groups: 0 exact static weight, 1 a range covering it, then the CSS order.
        var best = -1
        var bestRank = (Int.max, Int.max)
        for (i, face) in faces.enumerated() {
            let range = face.weightRange
            let rank: (Int, Int)
            if range.lowerBound == desired && range.upperBound == desired {
                rank = (0, 0)
            } else if range.contains(desired) {
                rank = (1, 0)
            } else {
                let w = desired < range.lowerBound ? range.lowerBound : range.upperBound
                rank = cssRank(weight: w, desired: desired)
            }
            if rank < bestRank {
                bestRank = rank
                best = i
            }
        }
        return faces[best]
    }

    /// The CSS Fonts 4 preference of a weight `w` that is not `desired`: (group, distance).
    ///
    /// Desired in 400…500: heavier up to 500 ascending, then lighter descending, then
    /// heavier than 500 ascending. Below 400: lighter descending, then heavier ascending.
    /// Above 500: heavier ascending, then lighter descending.
    static func cssRank(weight w: Int, desired: Int) -> (Int, Int) {
        let distance = abs(w - desired)
        if (400...500).contains(desired) {
            if w > desired && w <= 500 { return (2, distance) }
            if w < desired { return (3, distance) }
            return (4, distance)
        }
        if desired < 400 { return w < desired ? (2, distance) : (3, distance) }
        return w > desired ? (2, distance) : (3, distance)
    }

    /// Android's choice: the smallest |w1 − w2| / 100, plus 2 when the slant differs; first face on ties.
    package static func androidMatch(_ faces: [FaceRecord], desired: Int, italic: Bool) -> FaceRecord? {
        var best: (score: Double, face: FaceRecord)?
        for face in faces {
            let range = face.weightRange
            let distance =
                range.contains(desired) ? 0 : min(abs(range.lowerBound - desired), abs(range.upperBound - desired))
            let score = Double(distance) / 100 + ((face.italic || face.oblique) == italic ? 0 : 2)
            if best == nil || score < best!.score { best = (score, face) }
        }
        return best?.face
    }
}

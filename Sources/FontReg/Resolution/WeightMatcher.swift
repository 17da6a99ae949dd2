/// Chooses a face inside a family: CSS Fonts Level 4 (width, then style, then weight), or Android's nearest rule.
public enum WeightMatcher {
    /// The faces of the width CSS prefers for a normal-width request: normal, else the
    /// widest narrower ones, else the narrowest wider ones.
    public static func preferredWidth(_ faces: [FaceRecord]) -> [FaceRecord] {
        if faces.contains(where: { $0.width == 5 }) { return faces.filter { $0.width == 5 } }
        if let narrower = faces.filter({ $0.width < 5 }).map(\.width).max() { return faces.filter { $0.width == narrower } }
        let wider = faces.map(\.width).min()
        return faces.filter { $0.width == wider }
    }

    /// The style CSS falls back through: italic → oblique → normal; normal → oblique → italic.
    public static func styleOrder(italic: Bool) -> [FontStyle] {
        italic ? [.italic, .oblique, .normal] : [.normal, .oblique, .italic]
    }

    /// The face whose weight CSS Fonts 4 picks for `desired` among faces of one style.
    ///
    /// A face whose weight range contains `desired` (a variable face) counts as that weight.
    /// Otherwise: desired in 400…500 → heavier up to 500 ascending, then lighter descending,
    /// then heavier than 500 ascending; below 400 → lighter descending, then heavier
    /// ascending; above 500 → heavier ascending, then lighter descending.
    public static func cssMatch(_ faces: [FaceRecord], desired: Int) -> FaceRecord? {
        guard !faces.isEmpty else { return nil }
        // Exact first: a static face or named instance of that weight, then a range that covers it.
        if let exact = faces.first(where: { $0.weight == desired && $0.weightRange.count == 1 }) { return exact }
        if let covering = faces.first(where: { $0.weightRange.contains(desired) }) { return covering }
        func nearest(_ face: FaceRecord) -> Int {
            let range = face.weightRange
            return desired < range.lowerBound ? range.lowerBound : range.upperBound
        }
        let candidates = faces.map { (weight: nearest($0), face: $0) }
        let heavierAsc = candidates.filter { $0.weight > desired }.sorted { $0.weight < $1.weight }
        let lighterDesc = candidates.filter { $0.weight < desired }.sorted { $0.weight > $1.weight }
        let ordered: [(weight: Int, face: FaceRecord)]
        if (400...500).contains(desired) {
            ordered = heavierAsc.filter { $0.weight <= 500 } + lighterDesc + heavierAsc.filter { $0.weight > 500 }
        } else if desired < 400 {
            ordered = lighterDesc + heavierAsc
        } else {
            ordered = heavierAsc + lighterDesc
        }
        return ordered.first?.face
    }

    /// Android's choice: the smallest |w1 − w2| / 100, plus 2 when the slant differs; first face on ties.
    public static func androidMatch(_ faces: [FaceRecord], desired: Int, italic: Bool) -> FaceRecord? {
        var best: (score: Double, face: FaceRecord)?
        for face in faces {
            let range = face.weightRange
            let distance = range.contains(desired) ? 0 : min(abs(range.lowerBound - desired), abs(range.upperBound - desired))
            let score = Double(distance) / 100 + ((face.italic || face.oblique) == italic ? 0 : 2)
            if best == nil || score < best!.score { best = (score, face) }
        }
        return best?.face
    }
}

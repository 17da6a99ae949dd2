/// CSS Fonts Level 4 §5.2 face matching inside a family: width first, then style, then weight.
///
/// Each face gets a ``Rank`` for the request; lower is better, compared field by field, so
/// sorting by rank gives the order CSS tries faces in and the minimum is the face it picks.
///
/// - Width (`font-stretch`): a face whose width (or `wdth` range) contains the desired
///   percentage; else at or below 100 % narrower widths closest first, then wider; above
///   100 % wider widths closest first, then narrower.
/// - Style: `italic` tries italic faces (and `ital` axes), then oblique faces (as `oblique 14deg`),
///   then upright ones; `oblique <a>` tries oblique faces by the angle order below, then italic,
///   then upright; `normal` tries upright faces (and `slnt` ranges reaching 0), then oblique
///   faces (as `oblique 0deg`), then italic. Oblique angles for a desired angle a ≥ 11°: angles
///   ≥ a ascending, then positive angles below a descending, then angles ≤ 0 descending; for
///   0 ≤ a < 11°: angles in [a, 11) ascending, then positive angles below a descending, then
///   angles ≥ 11° ascending, then angles ≤ 0 descending; negative angles mirror this.
/// - Weight: an exact static weight, then a `wght` range containing it, then CSS's weight order
///   (400–500: heavier up to 500, lighter, heavier; below 400: lighter, heavier; above 500:
///   heavier, lighter).
public enum FaceMatcher {
    /// What the matcher needs from a query.
    public struct Request: Sendable, Hashable {
        /// The desired width in percent (100 is normal).
        public var width: Double
        /// The desired style.
        public var style: RequestedStyle
        /// The desired (effective) weight.
        public var weight: Int

        /// Creates a request.
        public init(width: Double = 100, style: RequestedStyle = .normal, weight: Int = 400) {
            self.width = width
            self.style = style
            self.weight = weight
        }
    }

    /// What matching needs of one face, worked out once when the index is built (the face's
    /// axes and coordinates are searched by tag only here), so that ranking is arithmetic.
    public struct Traits: Sendable, Hashable {
        /// The widths served (``FaceRecord/widthRange``).
        var width: ClosedRange<Double>
        /// The oblique angles served, in CSS degrees (``FaceRecord/obliqueAngleRange``).
        var angle: ClosedRange<Double>
        /// The weights served (``FaceRecord/weightRange``).
        var weight: ClosedRange<Int>
        /// Whether the face can be drawn upright, italic, or oblique.
        var upright: Bool, italic: Bool, oblique: Bool
        /// Whether italic comes from an `ital` axis.
        var italicAxis: Bool

        /// The traits of a face.
        public init(_ face: FaceRecord) {
            width = face.widthRange
            angle = face.obliqueAngleRange
            weight = face.weightRange
            upright = face.canBeUpright
            italic = face.canBeItalic
            oblique = face.canBeOblique
            italicAxis = face.hasItalicAxis
        }
    }

    /// How well one face fits a request; lower is better, compared field by field.
    public struct Rank: Sendable, Hashable, Comparable {
        /// The width group (0: covers the width) and distance.
        var widthGroup: Int, widthDistance: Double
        /// The style group (0: the style asked for), the oblique-angle group and distance.
        var styleGroup: Int, angleGroup: Int, angleDistance: Double
        /// The weight group (0: exact static weight, 1: a range covering it) and distance.
        var weightGroup: Int, weightDistance: Int
        /// The width to set on a `wdth` axis (the nearest the face has).
        public var width: Double
        /// The oblique angle the face is used at, in CSS degrees (0 for upright and italic).
        public var angle: Double
        /// Whether the face serves the style through an `ital` axis set to 1.
        public var italicAxis: Bool

        /// Whether the face has the width asked for.
        public var widthMatches: Bool { widthGroup == 0 }
        /// Whether the face has the style asked for (category; an oblique may be at another angle).
        public var styleMatches: Bool { styleGroup == 0 }
        /// Whether nothing can rank better: the width, style, angle and static weight asked for.
        var isPerfect: Bool {
            widthGroup == 0 && widthDistance == 0 && styleGroup == 0 && angleGroup == 0 && angleDistance == 0
                && weightGroup == 0 && weightDistance == 0
        }
        /// Whether the face has the style asked for at the angle asked for.
        public var styleExact: Bool { styleGroup == 0 && angleDistance == 0 }

        /// Whether `a` fits better than `b`: width first, then style and angle, then weight.
        public static func < (a: Rank, b: Rank) -> Bool {
            if a.widthGroup != b.widthGroup { return a.widthGroup < b.widthGroup }
            if a.widthDistance != b.widthDistance { return a.widthDistance < b.widthDistance }
            if a.styleGroup != b.styleGroup { return a.styleGroup < b.styleGroup }
            if a.angleGroup != b.angleGroup { return a.angleGroup < b.angleGroup }
            if a.angleDistance != b.angleDistance { return a.angleDistance < b.angleDistance }
            if a.weightGroup != b.weightGroup { return a.weightGroup < b.weightGroup }
            return a.weightDistance < b.weightDistance
        }
    }

    /// The rank of one face for a request.
    public static func rank(_ face: FaceRecord, for request: Request) -> Rank {
        rank(Traits(face), for: request)
    }

    /// The rank of a face with these traits for a request.
    public static func rank(_ traits: Traits, for request: Request) -> Rank {
        let width = widthRank(traits.width, desired: request.width)
        let style = styleRank(traits, desired: request.style)
        let range = traits.weight
        let weight: (Int, Int)
        if range.lowerBound == request.weight && range.upperBound == request.weight {
            weight = (0, 0)
        } else if range.contains(request.weight) {
            weight = (1, 0)
        } else {
            let w = request.weight < range.lowerBound ? range.lowerBound : range.upperBound
            weight = WeightMatcher.cssRank(weight: w, desired: request.weight)
        }
        return Rank(
            widthGroup: width.group, widthDistance: width.distance, styleGroup: style.group,
            angleGroup: style.angleGroup, angleDistance: style.distance, weightGroup: weight.0,
            weightDistance: weight.1, width: width.value, angle: style.angle, italicAxis: style.italicAxis)
    }

    /// The face CSS picks, with its rank; the first of equally ranked faces wins.
    public static func best(_ faces: [FaceRecord], for request: Request) -> (face: FaceRecord, rank: Rank)? {
        best(faces, traits: faces.map(Traits.init), for: request)
    }

    /// The face CSS picks among faces whose traits are known (`traits[i]` of `faces[i]`).
    static func best(_ faces: [FaceRecord], traits: [Traits], for request: Request) -> (
        face: FaceRecord, rank: Rank
    )? {
        var best: (index: Int, rank: Rank)?
        for i in traits.indices {
            let r = rank(traits[i], for: request)
            if best == nil || r < best!.rank {
                best = (i, r)
                // Nothing ranks below an exact width, style, angle and static weight.
                if r.isPerfect { break }
            }
        }
        return best.map { (faces[$0.index], $0.rank) }
    }

    /// Every face in the order CSS tries them (stable: equally ranked faces keep their order).
    public static func ordered(_ faces: [FaceRecord], for request: Request) -> [(face: FaceRecord, rank: Rank)] {
        let ranked = faces.enumerated().map {
            (offset: $0.offset, face: $0.element, rank: rank($0.element, for: request))
        }
        return ranked.sorted { ($0.rank, $0.offset) < ($1.rank, $1.offset) }.map { ($0.face, $0.rank) }
    }

    /// The width group and distance of a face's width range, and the width it would be used at.
    static func widthRank(_ range: ClosedRange<Double>, desired: Double) -> (
        group: Int, distance: Double, value: Double
    ) {
        if range.contains(desired) { return (0, 0, desired) }
        let v = desired < range.lowerBound ? range.lowerBound : range.upperBound
        let narrowerFirst = desired <= 100
        if (v < desired) == narrowerFirst { return (1, abs(v - desired), v) }
        return (2, abs(v - desired), v)
    }

    /// The style group, angle group, distance and the angle and `ital` setting a face is used at.
    static func styleRank(_ face: Traits, desired: RequestedStyle) -> (
        group: Int, angleGroup: Int, distance: Double, angle: Double, italicAxis: Bool
    ) {
        switch desired {
        case .normal:
            if face.upright { return (0, 0, 0, 0, false) }
            if face.oblique {
                let a = angleRank(face.angle, desired: 0)
                return (1, a.group, a.distance, a.value, false)
            }
            return (2, 0, 0, 0, face.italicAxis)
        case .italic:
            if face.italic { return (0, 0, 0, 0, face.italicAxis) }
            if face.oblique {
                let a = angleRank(face.angle, desired: RequestedStyle.defaultObliqueAngle)
                return (1, a.group, a.distance, a.value, false)
            }
            return (2, 0, 0, 0, false)
        case .oblique(let requested):
            let desiredAngle = requested ?? RequestedStyle.defaultObliqueAngle
            if face.oblique || (desiredAngle == 0 && face.upright) {
                let range = face.oblique ? face.angle : 0...0
                let a = angleRank(range, desired: desiredAngle)
                return (0, a.group, a.distance, a.value, false)
            }
            if face.italic { return (1, 0, 0, 0, face.italicAxis) }
            return (2, 0, 0, 0, false)
        }
    }

    /// The oblique-angle group and distance of a face's angle range for a desired angle.
    static func angleRank(_ range: ClosedRange<Double>, desired: Double) -> (
        group: Int, distance: Double, value: Double
    ) {
        if range.contains(desired) { return (0, 0, desired) }
        let v = desired < range.lowerBound ? range.lowerBound : range.upperBound
        // Negative angles mirror the positive rules.
        let (a, x) = desired < 0 ? (-desired, -v) : (desired, v)
        if a >= 11 {
            if x >= a { return (0, x - a, v) }
            if x > 0 { return (1, a - x, v) }
            return (2, -x, v)
        }
        if x >= a && x < 11 { return (0, x - a, v) }
        if x > 0 && x < a { return (1, a - x, v) }
        if x >= 11 { return (2, x - a, v) }
        return (3, -x, v)
    }
}

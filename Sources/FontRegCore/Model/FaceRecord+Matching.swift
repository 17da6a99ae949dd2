extension FaceRecord {
    /// The axis with this tag, when the face is the default face of a variable font (an
    /// instance is a point, not a range, so it has none for matching).
    func rangeAxis(_ tag: String) -> VariationAxis? {
        guard instance == nil, !axes.isEmpty else { return nil }
        return axes.first { $0.tag == tag }
    }

    /// The widths this face serves, as `font-stretch` percentages: the `wdth` axis of a variable
    /// face, else its one width.
    public var widthRange: ClosedRange<Double> {
        if let axis = rangeAxis("wdth") { return axis.minimum...axis.maximum }
        return widthPercent...widthPercent
    }

    /// The slant this face can draw, in CSS degrees (positive leans right): the `slnt` axis of a
    /// variable face (negated: `slnt` −10 is 10°), a slanted face's `post.italicAngle` (14° when
    /// the file declares none), 0 for an upright face.
    public var obliqueAngleRange: ClosedRange<Double> {
        if let axis = rangeAxis("slnt") { return -axis.maximum...(-axis.minimum) }
        if let slnt = coordinates.first(where: { $0.tag == "slnt" }), slnt.value != 0 {
            return -slnt.value...(-slnt.value)
        }
        guard italic || oblique else { return 0...0 }
        let angle = italicAngle == 0 ? RequestedStyle.defaultObliqueAngle : -italicAngle
        return angle...angle
    }

    /// Whether the face is the default face of a variable font with an `ital` axis that reaches 1.
    var hasItalicAxis: Bool { (rangeAxis("ital")?.maximum ?? 0) >= 1 }

    /// Whether the face can draw upright: a static upright face, or a variable face whose
    /// `ital` axis reaches 0 and whose `slnt` axis (if any) reaches 0.
    var canBeUpright: Bool {
        if let ital = rangeAxis("ital") {
            return ital.minimum <= 0 && obliqueAngleRange.contains(0)
        }
        return !italic && (!oblique || obliqueAngleRange.contains(0)) && obliqueAngleRange.contains(0)
    }

    /// Whether the face can draw an italic: a static italic face or an `ital` axis reaching 1.
    var canBeItalic: Bool { italic || hasItalicAxis }

    /// Whether the face can draw an oblique: a static oblique face, or a `slnt` range reaching past 0.
    var canBeOblique: Bool {
        if italic && !hasItalicAxis && rangeAxis("slnt") == nil { return false }
        let range = obliqueAngleRange
        return oblique || range.lowerBound != 0 || range.upperBound != 0
    }
}

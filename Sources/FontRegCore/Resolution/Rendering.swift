import FontRegJSON
import FontRegSystem

/// What a renderer needs besides the face: the axis values to set and what to fake.
///
/// Variations: every axis of a variable face whose value differs from the axis default, or
/// that the query sets (`wght` always, `wdth` when a width is asked, `slnt`/`ital` for a
/// slanted style, `opsz` when an optical size is given). A named instance keeps its own
/// coordinates; the query's values are clamped to the axis range, with a trace step.
///
/// Synthesis: bold when the effective weight is at least 600, the drawn weight is below 600 and
/// at least 300 lighter (so the face is not bold already, no `wght` axis reaches the weight, and
/// CSS's weight order found nothing heavier); oblique when a slanted style was asked and the
/// face is drawn upright. Each only when the query's ``SynthesisPermission`` allows it.
enum Rendering {
    /// The renderer's part of an answer.
    struct Answer {
        /// The axis values to set, in the file's axis order.
        var variations: [VariationSetting] = []
        /// What to fake.
        var synthesis: Synthesis = .none
        /// The weight drawn.
        var weight: Int
        /// Trace steps: clamped values, forbidden synthesis.
        var steps: [ResolveStep] = []
    }

    /// The variations and synthesis of `face`, used at `rank`, for `query` at weight `effective`.
    ///
    /// - Parameter rank: how the face was matched; needed for a variable face (`nil` for a static one).
    static func answer(face: FaceRecord, rank: FaceMatcher.Rank?, query: ResolveQuery, effective: Int) -> Answer {
        var answer = Answer(weight: face.weight)
        let rank = face.axes.isEmpty ? nil : (rank ?? FaceMatcher.rank(face, for: .init(weight: effective)))
        if let rank { setVariations(&answer, face: face, rank: rank, query: query, effective: effective) }
        let drawnUpright = !face.italic && !face.oblique && (rank?.angle ?? 0) == 0 && !(rank?.italicAxis ?? false)
        var wantsBold = effective >= 600 && answer.weight < 600 && effective - answer.weight >= 300
        var wantsOblique = query.style.isSlanted && drawnUpright
        if face.isColor && (wantsBold || wantsOblique) {
            // Colour glyphs (emoji) are pictures: faking their weight or slant only distorts them.
            answer.steps.append(
                .colorFaceNotSynthesized(postscriptName: face.postscriptName, bold: wantsBold, oblique: wantsOblique))
            (wantsBold, wantsOblique) = (false, false)
        }
        let bold = wantsBold && query.synthesis.weight
        let oblique = wantsOblique && query.synthesis.style
        if bold || oblique {
            var angle: Double?
            if case .oblique(let asked) = query.style { angle = asked }
            answer.synthesis = Synthesis(bold: bold, oblique: oblique, obliqueAngle: angle)
        }
        if (wantsBold && !bold) || (wantsOblique && !oblique) {
            answer.steps.append(.synthesisForbidden(bold: wantsBold && !bold, oblique: wantsOblique && !oblique))
        }
        return answer
    }

    /// Fills in the axis values of a variable face.
    private static func setVariations(
        _ answer: inout Answer, face: FaceRecord, rank: FaceMatcher.Rank, query: ResolveQuery, effective: Int
    ) {
        var settings: [VariationSetting] = []
        settings.reserveCapacity(face.axes.count)
        for (i, axis) in face.axes.enumerated() {
            var value =
                i < face.coordinates.count && face.coordinates[i].tag == axis.tag
                ? face.coordinates[i].value : axis.defaultValue
            var asked: Double?
            switch axis.tag {
            case "wght": asked = Double(effective)
            case "wdth": asked = query.width.map { _ in rank.width }
            case "slnt": if rank.angle != 0 { asked = -rank.angle }
            case "ital": if rank.italicAxis { asked = 1 }
            case "opsz": asked = query.opticalSize
            default: break
            }
            if let asked {
                value = min(axis.maximum, max(axis.minimum, asked))
                if value != asked {
                    answer.steps.append(
                        .clamped(tag: axis.tag, asked: asked, used: value, minimum: axis.minimum, maximum: axis.maximum)
                    )
                }
            }
            if asked != nil || value != axis.defaultValue {
                settings.append(VariationSetting(tag: axis.tag, value: value))
            }
            if axis.tag == "wght" { answer.weight = Int(value.rounded()) }
        }
        answer.variations = settings
    }
}

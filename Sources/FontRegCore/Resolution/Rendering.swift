/// What a renderer needs besides the face: the axis values to set and what to fake.
///
/// Variations: every axis of a variable face whose value differs from the axis default, or
/// that the query sets (`wght` always, `wdth` when a width is asked, `slnt`/`ital` for a
/// slanted style, `opsz` when an optical size is given). A named instance keeps its own
/// coordinates; the query's values are clamped to the axis range, with a trace step.
///
/// Synthesis, as browsers decide it (docs/matching.md, "Synthesis as browsers decide it"): bold
/// when the effective weight is at least 600 and the weight drawn is below 600 — a `wght` axis
/// that reaches the weight draws it, so no bold is faked (Chromium's `CSSSegmentedFontFace` rule:
/// asked ≥ 600 and face < 600). Oblique when italic, or an oblique angle of at least
/// ``obliqueSynthesisThreshold``, is asked and the face is drawn upright (neither italic nor
/// oblique nor slanted by an axis), always at ``RequestedStyle/defaultObliqueAngle`` — Skia's fake
/// italic skew is a fixed −1/4 (14.04°), whatever angle was asked. Each only when the query's
/// ``SynthesisPermission`` allows it; colour faces never.
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

    /// The weight from which a face lighter than ``boldSynthesisFaceLimit`` is emboldened (CSS's bold threshold).
    static let boldSynthesisThreshold = 600
    /// The weight below which a face counts as not bold.
    static let boldSynthesisFaceLimit = 600
    /// The least oblique angle, in degrees, for which an upright face is slanted (measured in Chromium:
    /// 14° and up are, 10° and −20° are not; /work/shared/docs/stage-three-facts.md).
    static let obliqueSynthesisThreshold: Double = 14

    /// Whether a browser fakes a slant for the style on an upright face: italic, or oblique from 14°.
    static func slantIsSynthesized(for style: RequestedStyle) -> Bool {
        switch style {
        case .normal: false
        case .italic: true
        case .oblique(let angle): (angle ?? RequestedStyle.defaultObliqueAngle) >= obliqueSynthesisThreshold
        }
    }

    /// The variations and synthesis of `face`, used at `rank`, for `query` at weight `effective`.
    ///
    /// - Parameter rank: how the face was matched; needed for a variable face (`nil` for a static one).
    static func answer(face: FaceRecord, rank: FaceMatcher.Rank?, query: ResolveQuery, effective: Int) -> Answer {
        var answer = Answer(weight: face.weight)
        let rank = face.axes.isEmpty ? nil : (rank ?? FaceMatcher.rank(face, for: .init(weight: effective)))
        if let rank { setVariations(&answer, face: face, rank: rank, query: query, effective: effective) }
        let drawnUpright = !face.italic && !face.oblique && (rank?.angle ?? 0) == 0 && !(rank?.italicAxis ?? false)
        var wantsBold = effective >= boldSynthesisThreshold && answer.weight < boldSynthesisFaceLimit
        var wantsOblique = slantIsSynthesized(for: query.style) && drawnUpright
        if face.isColor && (wantsBold || wantsOblique) {
            // Colour glyphs (emoji) are pictures: faking their weight or slant only distorts them.
            answer.steps.append(
                .colorFaceNotSynthesized(postscriptName: face.postscriptName, bold: wantsBold, oblique: wantsOblique))
            (wantsBold, wantsOblique) = (false, false)
        }
        let bold = wantsBold && query.synthesis.weight
        let oblique = wantsOblique && query.synthesis.style
        if bold || oblique {
            // The browsers' fixed slant, not the asked angle (a renderer that followed the query
            // would draw what no browser draws).
            answer.synthesis = Synthesis(bold: bold, oblique: oblique, obliqueAngle: RequestedStyle.defaultObliqueAngle)
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

import FontRegSystem

/// One step of a resolution, kept as data and put into words only when someone reads it.
///
/// The resolver records steps cheaply on its hot path; ``Resolution/trace`` renders them.
public enum ResolveStep: Sendable, Hashable, CustomStringConvertible {
    /// The query as asked.
    case asked(family: String, weight: Int, italic: Bool, boldText: Bool)
    /// The family name was an alias of another family.
    case alias(name: String, target: String, deprecated: Bool)
    /// The family was found, with this many faces.
    case foundFamily(name: String, faces: Int)
    /// A family rule from a rule file applies.
    case rule(FamilyRule)
    /// No rule file covers the family; the default rule applies.
    case defaultRule(source: String)
    /// Bold Text turned the requested weight into the effective one under a policy.
    case boldText(
        policy: BoldTextPolicy, requested: Int, effective: Int, supported: [Int], fromRule: Bool, style: FontStyle)
    /// The composed face name is registered.
    case composedFound(composed: String, registered: String)
    /// The composed face name is not registered.
    case composedMissing(composed: String)
    /// A face with the composed name is registered but has another weight or family.
    case composedWrongWeight(registered: String, weight: Int, otherFamily: String?, effective: Int, family: String)
    /// The weight is not one of the nine steps, so no face name is composed.
    case offGrid(weight: Int)
    /// The `android` policy: Android's nearest-weight rule chooses.
    case androidMatching
    /// The family has no face of the wanted style; another style serves.
    case styleFallback(wanted: FontStyle, used: FontStyle, family: String)
    /// A variable face covers the weight.
    case variable(postscriptName: String, range: ClosedRange<Int>, weight: Int)
    /// A face with exactly the effective weight serves.
    case matched(postscriptName: String, weight: Int)
    /// The nearest face by the CSS Fonts 4 rules serves instead.
    case substituted(postscriptName: String, faceWeight: Int, weight: Int)
    /// The family is not registered.
    case notRegistered(family: String, suggestions: [String])
    /// fontconfig's system sans-serif stands in.
    case systemFallback(postscriptName: String, family: String, weight: Int)
    /// The query's width, style, optical size or synthesis permission, when not the defaults.
    case askedAlso(width: Double?, style: RequestedStyle?, opticalSize: Double?, synthesis: SynthesisPermission?)
    /// No face has the width asked for; CSS's width order picked another.
    case widthFallback(wanted: Double, used: Double, family: String)
    /// An oblique face of another angle stands in.
    case angleFallback(wanted: Double, used: Double, family: String)
    /// A value the query asked for lies outside the face's axis: the nearest end is set.
    case clamped(tag: String, asked: Double, used: Double, minimum: Double, maximum: Double)
    /// The axis values the renderer must set.
    case variations(postscriptName: String, settings: [VariationSetting])
    /// What the renderer must fake, and why.
    case synthesized(Synthesis, weight: Int, effective: Int)
    /// Synthesis that would be needed but the query forbids.
    case synthesisForbidden(bold: Bool, oblique: Bool)
    /// Synthesis that would be needed but is not done on a colour face (emoji are pictures).
    case colorFaceNotSynthesized(postscriptName: String, bold: Bool, oblique: Bool)
    /// The chosen face won over duplicates from other files (indirect: a rare step should not
    /// make every step of every trace larger).
    indirect case duplicateLost(
        postscriptName: String, winnerFile: String, loserFile: String, reason: DuplicateGroup.Reason)
    /// A step received as text (from the daemon) rather than taken here.
    case text(String)

    /// The step or warning in plain words, as ``Resolution/trace`` shows it.
    public var description: String {
        switch self {
        case .asked(let family, let weight, let italic, let boldText):
            return
                "Asked for \"\(family)\" at weight \(Self.describe(weight))\(italic ? ", italic" : ""), Bold Text \(boldText ? "on" : "off")."
        case .alias(let name, let target, let deprecated):
            return "\"\(name)\" is \(deprecated ? "a deprecated" : "an") alias of \"\(target)\"."
        case .foundFamily(let name, let faces):
            return "Found the registered family \"\(name)\" (\(counted(faces, "face")))."
        case .rule(let rule):
            let supported =
                rule.supportedWeights.map { ", supported weights \($0.map(String.init).joined(separator: ", "))" } ?? ""
            return
                "Rule from \(rule.source): familyName \"\(rule.familyName)\", italic suffix \"\(rule.italicSuffix)\"\(supported)."
        case .defaultRule(let source):
            return "No rule file for this family: \(source), default weight names."
        case .boldText(let policy, let requested, let effective, let supported, let fromRule, let style):
            switch policy {
            case .nextHeavier:
                let source =
                    fromRule ? "the rule's supported weights" : "the weights registered in \(style.rawValue) style"
                let weights = "[\(supported.map(String.init).joined(separator: ", "))]"
                if !supported.contains(where: { $0 > requested }) {
                    return
                        "Bold Text (next-heavier): no weight heavier than \(requested) among \(source) \(weights); the heaviest, \(effective), is used."
                }
                return
                    "Bold Text (next-heavier): the next weight heavier than \(requested) among \(source) \(weights) is \(effective)."
            case .iosSystem:
                return
                    "Bold Text (ios-system): \(requested) → \(effective) (+100 below 400, +200 for 400–600, 900 from 700 up)."
            case .android:
                return
                    "Bold Text (android): \(requested) + 300 = \(effective) (clamped to 1000); the nearest face will be taken."
            case .cssBolder:
                return "Bold Text (css-bolder): bolder than \(requested) is \(effective)."
            }
        case .composedFound(let composed, let registered):
            let caseNote =
                registered == composed ? "" : " (registered as \(registered); names match without regard to case)"
            return "Composed the face name \"\(composed)\" and found it registered\(caseNote)."
        case .composedMissing(let composed):
            return "Composed the face name \"\(composed)\"; no registered face has that name."
        case .composedWrongWeight(let registered, let weight, let otherFamily, let effective, let family):
            let inFamily = otherFamily.map { " in family \"\($0)\"" } ?? ""
            return
                "\(registered) is registered but has weight \(weight)\(inFamily), not \(effective): the default rule's name does not fit this family; a rule file for \"\(family)\" that names its faces does."
        case .offGrid(let weight):
            return "\(weight) is not one of the nine weight steps, so no face name is composed; matching by weight."
        case .androidMatching:
            return "Android matching: the face with the smallest weight distance (slant mismatch costs 2 steps)."
        case .styleFallback(let wanted, let used, let family):
            return
                "No \(wanted.rawValue) face in \"\(family)\"; falling back to \(used.rawValue) faces (CSS style order)."
        case .askedAlso(let width, let style, let opticalSize, let synthesis):
            var parts: [String] = []
            if let width { parts.append("width \(FontWidth.describe(width))") }
            if let style { parts.append("style \(style)") }
            if let opticalSize { parts.append("optical size \(VariationSetting.format(opticalSize)) pt") }
            if let synthesis { parts.append("synthesis \(synthesis)") }
            return "Also asked for \(parts.joined(separator: ", "))."
        case .widthFallback(let wanted, let used, let family):
            return
                "No face of width \(FontWidth.describe(wanted)) in \"\(family)\"; the CSS width order picks \(FontWidth.describe(used))."
        case .angleFallback(let wanted, let used, let family):
            return
                "No oblique face at \(VariationSetting.format(wanted))° in \"\(family)\"; the CSS oblique-angle order picks \(VariationSetting.format(used))°."
        case .clamped(let tag, let asked, let used, let minimum, let maximum):
            return
                "\(tag) \(VariationSetting.format(asked)) is outside the axis range \(VariationSetting.format(minimum))–\(VariationSetting.format(maximum)): clamped to \(VariationSetting.format(used))."
        case .variations(let name, let settings):
            return "Set \(settings.map(\.description).joined(separator: ", ")) on \(name)."
        case .synthesized(let synthesis, let weight, let effective):
            var parts: [String] = []
            if synthesis.bold { parts.append("bold (the face is \(weight), \(effective) was asked, nothing heavier)") }
            if synthesis.oblique {
                parts.append(
                    "oblique \(VariationSetting.format(synthesis.obliqueAngle ?? 14))° (no italic or oblique face)")
            }
            return "The renderer must synthesize \(parts.joined(separator: " and "))."
        case .synthesisForbidden(let bold, let oblique):
            let what = [bold ? "bold" : nil, oblique ? "oblique" : nil].compactMap { $0 }.joined(separator: " and ")
            return "The query forbids synthesis: no fake \(what), the face is drawn as it is."
        case .colorFaceNotSynthesized(let name, let bold, let oblique):
            let what = [bold ? "bold" : nil, oblique ? "oblique" : nil].compactMap { $0 }.joined(separator: " and ")
            return
                "\(name) has colour glyphs (pictures, not outlines to thicken or slant): no fake \(what), as browsers draw emoji."
        case .duplicateLost(let name, let winnerFile, let loserFile, let reason):
            return "Duplicate: \(name) from \(winnerFile) is used, not the one from \(loserFile): \(reason)."
        case .variable(let name, let range, let weight):
            return
                "The variable face \(name) covers weights \(range.lowerBound)–\(range.upperBound): set wght=\(weight)."
        case .matched(let name, let weight):
            return "Matched \(name) by family and weight \(weight)."
        case .substituted(let name, let faceWeight, let weight):
            return "No face of weight \(weight); CSS Fonts 4 weight matching picks \(name) (weight \(faceWeight))."
        case .notRegistered(let family, let suggestions):
            return
                "No registered family is named \"\(family)\"\(suggestions.isEmpty ? "" : " (closest: \(suggestions.joined(separator: ", ")))")."
        case .systemFallback(let name, let family, let weight):
            return
                "SYSTEM FALLBACK: fontconfig's system configuration offers \(name) (\(family)) as sans-serif at weight \(weight)."
        case .text(let text):
            return text
        }
    }

    static func describe(_ weight: Int) -> String {
        let name = FontWeight(clamping: weight).displayName
        return name == String(weight) ? name : "\(weight) (\(name))"
    }
}

/// Something the caller of a resolution should know, kept as data until read.
public enum ResolveWarning: Sendable, Hashable, CustomStringConvertible {
    /// The family was named by a deprecated alias.
    case deprecatedAlias(name: String, target: String)
    /// The family lacks the weight Bold Text ideally asks for; another served.
    case boldTextStepMissing(ideal: Int, requested: Int, family: String, style: FontStyle, used: Int)
    /// The family has no face of the wanted style.
    case styleMissing(family: String, wanted: FontStyle, used: FontStyle)
    /// A face of another weight serves the query.
    case substituted(faceWeight: Int, weight: Int, family: String)
    /// The family is not registered; a system family stands in (with the closest registered names).
    case systemFallback(family: String, fallbackFamily: String, suggestions: [String] = [])
    /// Bold Text asked for a heavier weight than the heaviest the family has: the weight stays.
    case boldTextAtHeaviest(requested: Int, family: String, style: FontStyle, heaviest: Int)
    /// Bold Text moved a weight below the family's lightest face up to that face, which the
    /// weight drew without Bold Text too: the setting changes nothing for this query.
    case boldTextBelowLightest(requested: Int, family: String, style: FontStyle, lightest: Int)
    /// No face has the width asked for.
    case widthMissing(family: String, wanted: Double, used: Double)
    /// The renderer must fake bold or oblique.
    case synthesized(family: String, synthesis: Synthesis)
    /// The font's `MVAR` table was malformed: the face's metrics are its default ones at every coordinate.
    case metricsVariationIgnored(postscriptName: String, reason: String)
    /// A warning received as text (from the daemon).
    case text(String)

    /// The warning in plain words, as ``Resolution/warnings`` shows it.
    public var description: String {
        switch self {
        case .deprecatedAlias(let name, let target):
            "The family name \"\(name)\" is deprecated; use \"\(target)\"."
        case .boldTextStepMissing(let ideal, let requested, let family, let style, let used):
            "Bold Text wants \(ideal) (one step heavier than \(requested)), but \"\(family)\" has no \(ideal) face in \(style.rawValue) style; using \(used) instead."
        case .styleMissing(let family, let wanted, let used):
            "\"\(family)\" has no \(wanted.rawValue) face; a \(used.rawValue) face stands in."
        case .substituted(let faceWeight, let weight, let family):
            "Substituted weight \(faceWeight) for \(weight) in \"\(family)\"."
        case .systemFallback(let family, let fallbackFamily, let suggestions):
            "\"\(family)\" is not registered; the system sans-serif \(fallbackFamily) stands in."
                + (suggestions.isEmpty
                    ? "" : " Did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: " or "))?")
                + " Pass --strict (strict: true over Varlink) to get an error instead."
        case .boldTextAtHeaviest(let requested, let family, let style, let heaviest):
            heaviest == requested
                ? "Bold Text has no heavier weight to use: \(heaviest) is the heaviest \"\(family)\" has in \(style.rawValue) style, so the weight stays \(heaviest)."
                : "Bold Text has no heavier weight to use: \"\(family)\" has nothing heavier than \(requested) in \(style.rawValue) style; its heaviest, \(heaviest), is used."
        case .boldTextBelowLightest(let requested, let family, let style, let lightest):
            "Bold Text changes nothing here: \"\(family)\" has nothing lighter than \(lightest) in \(style.rawValue) style, so weight \(requested) draws its \(lightest) face with or without Bold Text (substituted weight \(lightest) for \(requested))."
        case .widthMissing(let family, let wanted, let used):
            "\"\(family)\" has no face of width \(FontWidth.describe(wanted)); \(FontWidth.describe(used)) stands in."
        case .synthesized(let family, let synthesis):
            "\"\(family)\" has no face for this; the renderer must synthesize \(synthesis)."
        case .metricsVariationIgnored(let name, let reason):
            "The metrics of \(name) are its default ones at these coordinates: the font's \(reason)."
        case .text(let text):
            text
        }
    }
}

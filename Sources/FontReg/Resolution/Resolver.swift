/// Resolves family + weight + style (+ Bold Text) to a registered face, and says why.
///
/// The steps: alias and rule lookup; the Bold Text weight by policy; the composed face
/// name matched against registered PostScript names without regard to case; else a face
/// of the family chosen by CSS Fonts 4 (Android's nearest rule under the `android`
/// policy); else, unless strict, fontconfig's system sans-serif, clearly marked.
public struct Resolver: Sendable {
    /// The faces to resolve against.
    public let index: FontIndex
    /// The family rules and aliases.
    public let rules: RuleSet
    /// The system fallback: the best system sans-serif for an OpenType weight and style.
    public let systemFallback: (@Sendable (_ weight: Int, _ italic: Bool) -> FaceRecord?)?

    public init(index: FontIndex, rules: RuleSet = .empty, systemFallback: (@Sendable (Int, Bool) -> FaceRecord?)? = nil) {
        self.index = index
        self.rules = rules
        self.systemFallback = systemFallback
    }

    /// Resolves a query.
    ///
    /// - Throws: ``ResolveError/familyNotFound(family:suggestions:)`` for an unknown family in
    ///   strict mode (or with no system fallback), naming the closest registered families.
    public func resolve(_ query: ResolveQuery) throws(ResolveError) -> Resolution {
        var trace: [String] = []
        var warnings: [String] = []
        let requested = query.weight.value
        trace.append("Asked for \"\(query.family)\" at weight \(Self.describe(requested))\(query.italic ? ", italic" : ""), Bold Text \(query.boldText ? "on" : "off").")

        // 1. Aliases and the family rule.
        var familyName = query.family
        if let alias = rules.alias(query.family) {
            familyName = alias.target
            trace.append("\"\(query.family)\" is \(alias.deprecated ? "a deprecated" : "an") alias of \"\(alias.target)\".")
            if alias.deprecated { warnings.append("The family name \"\(query.family)\" is deprecated; use \"\(alias.target)\".") }
        }
        let declared = rules.rule(for: familyName)
        let entry = index.family(named: familyName) ?? declared.flatMap { index.family(named: $0.family) }
        let rule = declared ?? entry.flatMap { rules.rule(for: $0.name) }
            ?? FamilyRule.defaultRule(for: entry?.name ?? familyName, faces: entry?.faces ?? [])
        if let entry {
            trace.append("Found the registered family \"\(entry.name)\" (\(entry.faces.count) faces).")
        }
        trace.append(declared != nil || entry.flatMap({ rules.rule(for: $0.name) }) != nil
            ? "Rule from \(rule.source): familyName \"\(rule.familyName)\", italic suffix \"\(rule.italicSuffix)\"\(rule.supportedWeights.map { ", supported weights \($0.map(String.init).joined(separator: ", "))" } ?? "")."
            : "No rule file for this family: \(rule.source), default weight names.")

        let style: FontStyle = query.italic ? .italic : .normal
        let policy = query.boldPolicy ?? rule.boldPolicy

        // 2. Bold Text.
        var effective = requested
        if query.boldText {
            let registered = entry.map { Self.registeredWeights($0, style: style) } ?? []
            let supported = rule.supportedWeights ?? (entry == nil ? FontWeight.steps.map(\.value) : registered)
            effective = BoldText.weight(for: requested, policy: policy, supported: supported)
            switch policy {
            case .nextHeavier:
                let source = rule.supportedWeights != nil ? "the rule's supported weights" : "the weights registered in \(style.rawValue) style"
                trace.append("Bold Text (next-heavier): the next weight heavier than \(requested) among \(source) [\(supported.map(String.init).joined(separator: ", "))] is \(effective).")
                let ideal = BoldText.idealNextStep(after: requested)
                if let entry, ideal != effective || !registered.contains(ideal) {
                    if !registered.contains(ideal) && ideal != requested {
                        warnings.append("Bold Text wants \(ideal) (one step heavier than \(requested)), but \"\(entry.name)\" has no \(ideal) face in \(style.rawValue) style; using \(effective) instead.")
                    }
                }
            case .iosSystem:
                trace.append("Bold Text (ios-system): \(requested) → \(effective) (+100 below 400, +200 for 400–600, 900 from 700 up).")
            case .android:
                trace.append("Bold Text (android): \(requested) + 300 = \(effective) (clamped to 1000); the nearest face will be taken.")
            case .cssBolder:
                trace.append("Bold Text (css-bolder): bolder than \(requested) is \(effective).")
            }
        }

        // 3. The composed face name.
        let composed = rule.composedName(weight: effective, italic: query.italic)
        guard let entry else {
            return try fallback(query: query, rule: rule, composed: composed, requested: requested, effective: effective, policy: query.boldText ? policy : nil, trace: trace, warnings: warnings)
        }
        if let composed {
            if let face = index.face(postscriptName: composed), FamilyKey(face.family) == FamilyKey(entry.name) || declared != nil {
                let caseNote = face.postscriptName == composed ? "" : " (registered as \(face.postscriptName); names match without regard to case)"
                trace.append("Composed the face name \"\(composed)\" and found it registered\(caseNote).")
                return Resolution(face: face, composedName: composed, match: .exactName, requestedWeight: requested, effectiveWeight: effective, resolvedFamily: entry.name, boldPolicy: query.boldText ? policy : nil, trace: trace, warnings: warnings)
            }
            trace.append("Composed the face name \"\(composed)\"; no registered face has that name.")
        } else {
            trace.append("\(effective) is not one of the nine weight steps, so no face name is composed; matching by weight.")
        }

        // 4. A face of the family by CSS Fonts 4 (or Android's nearest rule).
        let faces = WeightMatcher.preferredWidth(entry.faces)
        var chosen: FaceRecord?
        if query.boldText && policy == .android {
            chosen = WeightMatcher.androidMatch(faces, desired: effective, italic: query.italic)
            trace.append("Android matching: the face with the smallest weight distance (slant mismatch costs 2 steps).")
        } else {
            for candidateStyle in WeightMatcher.styleOrder(italic: query.italic) {
                let ofStyle = faces.filter { $0.style == candidateStyle }
                guard !ofStyle.isEmpty else { continue }
                if candidateStyle != style {
                    trace.append("No \(style.rawValue) face in \"\(entry.name)\"; falling back to \(candidateStyle.rawValue) faces (CSS style order).")
                    warnings.append("\"\(entry.name)\" has no \(style.rawValue) face; a \(candidateStyle.rawValue) face stands in.")
                }
                chosen = WeightMatcher.cssMatch(ofStyle, desired: effective)
                break
            }
        }
        guard let face = chosen else { throw .noFaceInFamily(family: entry.name) }
        let exact = face.weightRange.contains(effective) && face.style == style
        if face.weightRange.count > 1 {
            trace.append("The variable face \(face.postscriptName) covers weights \(face.weightRange.lowerBound)–\(face.weightRange.upperBound): set wght=\(effective).")
        }
        if exact {
            trace.append("Matched \(face.postscriptName) by family and weight \(effective).")
        } else {
            trace.append("No face of weight \(effective); CSS Fonts 4 weight matching picks \(face.postscriptName) (weight \(face.weight)).")
            warnings.append("Substituted weight \(face.weight) for \(effective) in \"\(entry.name)\".")
        }
        return Resolution(face: face, composedName: composed, match: exact ? .familyWeight : .nearestWeight, requestedWeight: requested, effectiveWeight: effective, resolvedFamily: entry.name, boldPolicy: query.boldText ? policy : nil, trace: trace, warnings: warnings)
    }

    /// Step 5: the family is not registered.
    private func fallback(
        query: ResolveQuery, rule: FamilyRule, composed: String?, requested: Int, effective: Int,
        policy: BoldTextPolicy?, trace: [String], warnings: [String]
    ) throws(ResolveError) -> Resolution {
        var trace = trace, warnings = warnings
        let suggestions = index.suggestions(for: query.family)
        trace.append("No registered family is named \"\(query.family)\"\(suggestions.isEmpty ? "" : " (closest: \(suggestions.joined(separator: ", ")))").")
        if query.strict {
            throw .familyNotFound(family: query.family, suggestions: suggestions)
        }
        guard let systemFallback, let face = systemFallback(effective, query.italic) else {
            throw .familyNotFound(family: query.family, suggestions: suggestions)
        }
        trace.append("SYSTEM FALLBACK: fontconfig's system configuration offers \(face.postscriptName) (\(face.family)) as sans-serif at weight \(effective).")
        warnings.append("\"\(query.family)\" is not registered; the system sans-serif \(face.family) stands in. Use strict mode to get an error instead.")
        return Resolution(face: face, composedName: composed, match: .systemFallback, requestedWeight: requested, effectiveWeight: effective, resolvedFamily: face.family, boldPolicy: policy, trace: trace, warnings: warnings)
    }

    /// The weights a family has in a style; a family with no face of that style uses its normal faces.
    static func registeredWeights(_ entry: FamilyEntry, style: FontStyle) -> [Int] {
        let weights = entry.registeredWeights(style: style)
        return weights.isEmpty ? entry.registeredWeights(style: .normal) : weights
    }

    static func describe(_ weight: Int) -> String {
        let name = FontWeight(clamping: weight).displayName
        return name == String(weight) ? name : "\(weight) (\(name))"
    }
}

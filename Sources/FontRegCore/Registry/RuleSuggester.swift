import Foundation

/// Writes the family rule whose composed names match the faces actually registered.
///
/// It discovers the face-name root, each step's weight name (`DemiBold`, `Heavy`, an empty
/// regular name), the italic suffix and the weights present.
package enum RuleSuggester {
    /// A suggested rule and notes about faces the naming model cannot reach by name.
    package struct Suggestion: Sendable {
        package var rule: FamilyRule
        package var notes: [String]
    }

    /// Suggests the rule for a registered family.
    package static func suggest(for entry: FamilyEntry) -> Suggestion {
        var notes: [String] = []
        let staticFaces = entry.faces.filter { $0.weightRange.count == 1 }
        let base = FamilyRule.defaultRule(for: entry.name, faces: staticFaces.isEmpty ? entry.faces : staticFaces)
        let root = base.familyName
        var rule = FamilyRule(family: entry.name, familyName: root, weightNames: [:], source: "suggested")
        func suffix(_ face: FaceRecord) -> String? {
            let name = face.postscriptName
            if name.caseInsensitiveCompare(root) == .orderedSame { return "" }
            guard name.lowercased().hasPrefix(root.lowercased() + "-") else { return nil }
            return String(name.dropFirst(root.count + 1))
        }
        func step(_ face: FaceRecord) -> Int? {
            face.weight % 100 == 0 && face.weight <= 900 ? face.weight : nil
        }
        let normal = staticFaces.filter { $0.style == .normal }
        var taken: [Int: String] = [:]
        for face in normal {
            guard let name = suffix(face) else {
                notes.append(
                    "\(face.postscriptName) does not start with \"\(root)-\"; no rule can compose its name (it is still found by weight)."
                )
                continue
            }
            var weight = step(face)
            if weight == nil {
                let nearest = FontWeight(clamping: face.weight).nearestStep.value
                if normal.contains(where: { $0.weight == nearest }) {
                    notes.append(
                        "\(face.postscriptName) has weight \(face.weight), off the nine steps, and \(nearest) is taken; it is found by weight only."
                    )
                    continue
                }
                notes.append(
                    "\(face.postscriptName) has weight \(face.weight), off the nine steps; named as step \(nearest).")
                weight = nearest
            }
            taken[weight!] = name
        }
        rule.weightNames = FamilyRule.defaultWeightNames.merging(taken) { $1 }
        // The italic suffix: what italic faces add to their weight's name.
        var suffixes: [String: Int] = [:]
        for face in staticFaces where face.style != .normal {
            guard let name = suffix(face) else { continue }
            let stepWeight = step(face) ?? FontWeight(clamping: face.weight).nearestStep.value
            if let weightName = taken[stepWeight], name.hasPrefix(weightName), name.count > weightName.count {
                suffixes[String(name.dropFirst(weightName.count)), default: 0] += 1
            }
        }
        if let best = suffixes.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) { rule.italicSuffix = best.key }
        for face in staticFaces where face.style != .normal {
            let stepWeight = step(face) ?? FontWeight(clamping: face.weight).nearestStep.value
            if let composed = rule.composedName(weight: stepWeight, italic: true),
                composed.caseInsensitiveCompare(face.postscriptName) != .orderedSame
            {
                notes.append(
                    "\(face.postscriptName) (\(stepWeight), \(face.style.rawValue)) is not the composed \(composed); it is found by weight."
                )
            }
        }
        let present = Set(normal.compactMap { step($0) } + taken.keys)
        rule.supportedWeights = present.isEmpty ? nil : present.sorted()
        if entry.faces.contains(where: { $0.weightRange.count > 1 }) {
            notes.append("The family has a variable face; every weight in its range is served by it.")
            rule.supportedWeights = nil
        }
        return Suggestion(rule: rule, notes: notes)
    }
}

import FontRegJSON
import Foundation

/// Tests rule files against the registered faces: `fontresolve rules check`.
///
/// For every rule and weight step it composes the face name and compares it with what the
/// registry holds. It reports, each at the line of the `weightNames` entry (or of the rule):
/// - a weight name whose face has another `usWeightClass` (the name belongs to another step);
/// - an inverted pair: a lighter step whose face is heavier than the next step's (YMatterType's
///   own Helvetica Neue table maps 100 → Thin and 200 → UltraLight, while Apple's UltraLight is the lighter);
/// - a face with a Windows-legacy class (250, 275 and other values off the hundreds);
/// - a weight name the default table reads as another weight ("Book", "Ultra"), when no face confirms it;
/// - a supported weight whose composed name no registered face has.
package enum RuleChecker {
    /// One problem found, with where it is and what to do.
    package struct Finding: Sendable, Hashable, CustomStringConvertible, Codable {
        /// What was found: what code decides by, where ``message`` and ``fix`` are for people.
        package enum Kind: String, Sendable, Hashable, Codable {
            /// The face has a Windows-legacy `usWeightClass` (250, 275, others off the hundreds).
            case legacyWeightClass
            /// The weight name names a face whose `usWeightClass` is another step.
            case wrongFace
            /// The default table reads the weight name as another weight, and no face confirms it.
            case ambiguousWeightName
            /// A supported weight whose composed name no registered face has.
            case missingFace
            /// A lighter step's face is heavier than the next step's.
            case inverted
        }

        /// What was found.
        package var kind: Kind
        /// The composed face name the finding is about, when one face is (to look it up).
        package var face: String?
        /// `error` (the rule names the wrong face) or `warning` (worth a look).
        package var severity: String
        /// The rule file.
        package var file: String
        /// The line of the entry, when known.
        package var line: Int?
        /// Its column.
        package var column: Int?
        /// The family the rule is for.
        package var family: String
        /// What is wrong.
        package var message: String
        /// How to fix it. It names no program: `fontresolve rules check` adds the command that
        /// shows the face (``face``).
        package var fix: String

        /// `file:line:column: severity: message; fix: …`, the form editors jump to.
        package var description: String {
            var place = file
            if let line { place += ":\(line)" }
            if let column { place += ":\(column)" }
            return "\(place): \(severity): \(family): \(message); fix: \(fix)"
        }
    }

    /// Checks every rule of `rules` against `faces`.
    ///
    /// - Returns: the findings, by file and line.
    package static func check(_ rules: RuleSet, faces: [FaceRecord]) -> [Finding] {
        var findings: [Finding] = []
        var positions: [String: [String: [Int: SourcePosition]]] = [:]
        for rule in rules.rules {
            if positions[rule.source] == nil { positions[rule.source] = weightNamePositions(in: rule.source) }
            let family = FamilyKey(rule.family)
            let familyFaces = faces.filter { FamilyKey($0.family) == family }
            let places = positions[rule.source]?[FontWeight.normalizedName(rule.family)] ?? [:]
            findings += check(rule, faces: familyFaces, places: places)
        }
        return findings.sorted { ($0.file, $0.line ?? 0, $0.message) < ($1.file, $1.line ?? 0, $1.message) }
    }

    /// The findings of one rule.
    static func check(_ rule: FamilyRule, faces: [FaceRecord], places: [Int: SourcePosition]) -> [Finding] {
        var findings: [Finding] = []
        func add(
            _ kind: Finding.Kind, face: String?, _ severity: String, _ step: Int?, _ message: String, _ fix: String
        ) {
            let place = step.flatMap { places[$0] } ?? places[0]
            findings.append(
                Finding(
                    kind: kind, face: face, severity: severity, file: rule.source, line: place?.line,
                    column: place?.column, family: rule.family, message: message, fix: fix))
        }
        var byName: [String: FaceRecord] = [:]
        for face in faces where face.instance == nil || face.axes.isEmpty {
            byName[face.postscriptName.lowercased()] = byName[face.postscriptName.lowercased()] ?? face
        }
        var found: [Int: FaceRecord] = [:]
        for step in stride(from: 100, through: 900, by: 100) {
            guard let composed = rule.composedName(weight: step, italic: false),
                let weightName = rule.weightName(for: step)
            else { continue }
            let face = byName[composed.lowercased()]
            if let face { found[step] = face }
            if let face, face.weight % 100 != 0 {
                add(
                    .legacyWeightClass, face: composed, "warning", step,
                    "\(composed) has the Windows-legacy usWeightClass \(face.weight) (GDI-era fonts used 250 and 275 for 200 and 300)",
                    "treat it as \(legacyStep(face.weight)); list \(legacyStep(face.weight)) under supportedWeights, not \(face.weight)"
                )
            } else if let face, face.weight != step {
                add(
                    .wrongFace, face: composed, "error", step,
                    "weightNames \(step) → \"\(weightName)\" names \(face.postscriptName), whose usWeightClass is \(face.weight)",
                    "move \"\(weightName)\" to \(face.weight) and give \(step) the name of the face whose class is \(step)"
                )
            }
            let readAs = FontWeight(parsing: weightName)?.value
            if face == nil || face?.weight != step, !weightName.isEmpty, readAs != step {
                let reading = readAs.map { "as \($0)" } ?? "as no weight at all (ambiguous or unknown)"
                add(
                    .ambiguousWeightName, face: composed, "warning", step,
                    "the default table reads the weight name \"\(weightName)\" \(reading), not \(step)",
                    "check the usWeightClass of \(composed) and name the step it really has")
            }
            if face == nil, rule.supportedWeights?.contains(step) ?? false {
                add(
                    .missingFace, face: composed, "warning", step,
                    "supportedWeights lists \(step) but no registered face is named \(composed)",
                    "register the face, correct weightNames \(step), or drop \(step) from supportedWeights")
            }
        }
        inversions(found, add: add)
        return findings
    }

    /// Adjacent steps whose faces are in the opposite order.
    private static func inversions(
        _ found: [Int: FaceRecord], add: (Finding.Kind, String?, String, Int?, String, String) -> Void
    ) {
        let steps = found.keys.sorted()
        for (lighter, heavier) in zip(steps, steps.dropFirst()) {
            let light = found[lighter]!
            let heavy = found[heavier]!
            guard light.weight > heavy.weight else { continue }
            add(
                .inverted, nil, "error", lighter,
                "inverted: \(lighter) → \(light.postscriptName) (class \(light.weight)) is heavier than \(heavier) → \(heavy.postscriptName) (class \(heavy.weight))",
                "swap the weight names of \(lighter) and \(heavier)")
        }
    }

    /// The step a Windows-legacy class stands for (250 → 200, 275 → 300, others rounded).
    static func legacyStep(_ weight: Int) -> Int {
        switch weight {
        case 250: 200
        case 275: 300
        default: min(900, max(100, Int((Double(weight) / 100).rounded()) * 100))
        }
    }

    /// Where each `weightNames` entry of each rule is written: normalized family → step → position
    /// (step 0 is the rule object itself).
    static func weightNamePositions(in path: String) -> [String: [Int: SourcePosition]] {
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? SourceJSONParser.parse(bytes: [UInt8](data), file: path)
        else { return [:] }
        let objects = root.arrayValue ?? root["rules"]?.arrayValue ?? [root]
        var result: [String: [Int: SourcePosition]] = [:]
        for object in objects {
            guard let family = object["family"]?.stringValue else { continue }
            var places: [Int: SourcePosition] = [0: object.position]
            for member in object["weightNames"]?.members ?? [] {
                if let weight = FontWeight(parsing: member.key, heavy: .apple) {
                    places[weight.value] = member.keyPosition
                }
            }
            result[FontWeight.normalizedName(family)] = places
        }
        return result
    }
}

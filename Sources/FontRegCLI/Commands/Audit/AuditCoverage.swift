import FontRegAudit
import FontRegCore
import FontRegProtocol
import Foundation

/// The coverage part of the audit (issue 12): for every required face, the sample characters and languages it
/// lacks, and the face text fallback draws them with.
///
/// The answers come from the backend's text fallback and per-face coverage (in process, or the daemon's
/// `ResolveText` and `FaceCoverage`), so embedded and daemon audits report the same gaps.
struct AuditCoverage {
    /// What a face lacks of a text: the `FaceCoverage` answer.
    var faceCoverage: (_ postscriptName: String, _ text: String) throws(CLIError) -> FaceCoverageReply
    /// The runs of a text: the `ResolveText` answer.
    var resolveText: (_ text: String, _ query: TextQuery) throws(CLIError) -> TextReply
    /// The registered faces, to name the family of a stand-in face.
    var faces: [FaceRecord]

    /// The gaps of every face the report ships, in report order.
    ///
    /// - Parameters:
    ///   - report: the audit without coverage.
    ///   - languages: the language tags asked for.
    ///   - samples: the sample texts asked for.
    /// - Throws: ``CLIError`` when the backend cannot answer.
    func gaps(in report: AuditReport, languages: [String], samples: [String]) throws(CLIError) -> [CoverageGap] {
        let familyOf = Dictionary(faces.map { ($0.postscriptName, $0.family) }, uniquingKeysWith: { first, _ in first })
        var gaps: [CoverageGap] = []
        for family in report.families {
            for style in family.styles {
                for face in style.faces {
                    for role in face.roles {
                        guard
                            let plan = style.weights.first(where: {
                                role == "boldText" ? $0.boldTextServedBy == face.weight : $0.servedBy == face.weight
                            })
                        else { continue }
                        let asked = AskedFace(
                            family: family.family, style: style.style, weight: face.weight, role: role,
                            postscriptName: face.postscriptName,
                            queryWeight: role == "boldText" ? plan.servedBy : face.weight,
                            source: plan.sources.first ?? "")
                        if let gap = try gap(
                            asked, policy: report.boldPolicy, languages: languages, samples: samples, familyOf: familyOf
                        ) {
                            gaps.append(gap)
                        }
                    }
                }
            }
        }
        return gaps
    }

    /// A required face in one role, and the weight its text is asked at (the drawn weight for Bold Text).
    struct AskedFace {
        /// The family as the design system spells it.
        var family: String
        /// Its style.
        var style: String
        /// The required weight.
        var weight: Int
        /// `used` or `boldText`.
        var role: String
        /// The face serving it.
        var postscriptName: String
        /// The weight the text query asks for, Bold Text turning it into `weight` for the `boldText` role.
        var queryWeight: Int
        /// The first text style requiring it.
        var source: String
    }

    /// The gap of one face in one role, or `nil` when it covers every sample and language.
    private func gap(
        _ asked: AskedFace, policy: BoldTextPolicy, languages: [String], samples: [String],
        familyOf: [String: String]
    ) throws(CLIError) -> CoverageGap? {
        var missing: [Int] = []
        var faceLanguages: [String] = []
        for sample in samples.isEmpty ? [""] : samples {
            let reply = try faceCoverage(asked.postscriptName, sample)
            faceLanguages = reply.languages
            for point in reply.missing where !missing.contains(point) { missing.append(point) }
        }
        let missingLanguages = languages.filter { !Self.covers(faceLanguages, $0) }
        guard !missing.isEmpty || !missingLanguages.isEmpty else { return nil }
        var standIns: [CoverageStandIn] = []
        var uncovered: [Int] = []
        let query = TextQuery(
            families: [asked.family],
            style: ResolveQuery(
                family: asked.family, weight: FontWeight(asked.queryWeight) ?? .regular,
                boldText: asked.role == "boldText",
                boldPolicy: policy, style: RequestedStyle(parsing: asked.style)),
            language: languages.first)
        for sample in samples where !sample.isEmpty {
            let reply = try resolveText(sample, query)
            for point in reply.missing where !uncovered.contains(point) { uncovered.append(point) }
            for run in reply.runs where run.postscriptName != asked.postscriptName {
                if let index = standIns.firstIndex(where: {
                    $0.postscriptName == run.postscriptName && $0.weight == run.weight
                }) {
                    standIns[index].characters += run.text
                } else {
                    standIns.append(
                        CoverageStandIn(
                            postscriptName: run.postscriptName,
                            family: familyOf[run.postscriptName] ?? run.postscriptName,
                            weight: run.weight, italic: run.italic, file: run.file, characters: run.text))
                }
            }
        }
        return CoverageGap(
            family: asked.family, style: asked.style, weight: asked.weight, role: asked.role,
            postscriptName: asked.postscriptName, missingCharacters: missing.map(Self.describe),
            missingLanguages: missingLanguages, standIns: standIns, uncovered: uncovered.map(Self.describe),
            source: asked.source)
    }

    /// Whether a face's fontconfig languages cover a tag: the tag itself, or its language part (`ja-JP` → `ja`),
    /// compared without case and with `_` as `-`.
    static func covers(_ languages: [String], _ tag: String) -> Bool {
        let normalized = { (tag: String) in tag.lowercased().replacingOccurrences(of: "_", with: "-") }
        let wanted = normalized(tag)
        let have = Set(languages.map(normalized))
        if have.contains(wanted) { return true }
        let base = String(wanted.split(separator: "-").first ?? "")
        return have.contains(base) || have.contains { $0.hasPrefix(wanted + "-") }
    }

    /// `U+4E16 世`.
    static func describe(_ point: Int) -> String {
        let hex = String(point, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        guard let scalar = Unicode.Scalar(UInt32(point)), !scalar.properties.isWhitespace,
            scalar.properties.generalCategory != .control
        else { return code }
        return "\(code) \(Character(scalar))"
    }
}

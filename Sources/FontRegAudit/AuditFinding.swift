import FontRegJSON
import Foundation

/// A missing face reported at the text style that needs it: what CI output (SARIF, annotations) points at.
package struct AuditFinding: Sendable, Hashable {
    /// The input file the style is declared in.
    package var file: String
    /// Its line, when known.
    package var line: Int?
    /// Its column, when known.
    package var column: Int?
    /// The style's token path or Swift name.
    package var name: String
    /// "`font.weight.semibold` needs Lato 700 under Bold Text: missing; …".
    package var message: String

    /// The finding for an input that cannot be read (a broken reference, malformed JSON), at its line.
    package static func finding(for error: AuditInputError) -> AuditFinding {
        let location = error.location
        return AuditFinding(
            file: location?.file ?? "", line: location?.position?.line, column: location?.position?.column, name: "",
            message: error.description)
    }

    /// One finding per text style and missing face it needs (drawn, or under Bold Text), in report order.
    package static func findings(in report: AuditReport) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        for family in report.families {
            for style in family.styles {
                for missing in style.missing {
                    for plan in style.weights {
                        let drawn = plan.servedBy == missing.weight
                        let bold = plan.boldTextServedBy == missing.weight && !drawn
                        guard drawn || bold else { continue }
                        for source in plan.sources {
                            findings.append(
                                finding(source, family: family.family, style: style.style, missing: missing, bold: bold)
                            )
                        }
                    }
                }
            }
        }
        return findings
    }

    /// One finding per coverage gap (issue 12), at the first text style requiring the face.
    static func coverageFindings(in report: AuditReport) -> [AuditFinding] {
        (report.coverage ?? []).map { gap in
            var place = parse(gap.source)
            place.message = "`\(place.name)` needs \(gap.summary)"
            return place
        }
    }

    /// The warnings of inputs that yield nothing: one for the whole run when no text style was found
    /// (at the first input), else one per input file that contributes nothing.
    static func inputWarnings(in report: AuditReport) -> [AuditFinding] {
        if report.status == .nothingAudited {
            let file = report.inputs.first.map { $0.components(separatedBy: ", ").first ?? $0 } ?? ""
            return [AuditFinding(file: file, line: nil, column: nil, name: "", message: report.nothingAuditedMessage)]
        }
        return report.unusedInputs.map {
            AuditFinding(file: $0, line: nil, column: nil, name: "", message: AuditReport.idleInputMessage($0))
        }
    }

    /// One finding per declaration of a family no text style uses.
    static func unusedFamilyFindings(in report: AuditReport) -> [AuditFinding] {
        report.unusedFamilies.flatMap { family in
            family.declaredAt.map { declaration in
                var place = parse(declaration)
                place.message =
                    "`\(place.name)` declares \(family.family), which no text style uses: not audited, not shipped"
                return place
            }
        }
    }

    private static func finding(
        _ source: String, family: String, style: String, missing: MissingFace, bold: Bool
    ) -> AuditFinding {
        var place = parse(source)
        let face = "\(family) \(missing.weight)\(style == "normal" ? "" : " \(style)")"
        place.message = "`\(place.name)` needs \(face)\(bold ? " under Bold Text" : ""): missing; \(missing.reason)"
        return place
    }

    /// Splits `file:line:column (name)` (``UseOrigin/description``) into its parts; names may hold parentheses.
    static func parse(_ source: String) -> AuditFinding {
        let range = NSRange(source.startIndex..., in: source)
        if let match = positioned.firstMatch(in: source, range: range),
            let file = Range(match.range(at: 1), in: source), let line = Range(match.range(at: 2), in: source),
            let column = Range(match.range(at: 3), in: source), let name = Range(match.range(at: 4), in: source)
        {
            return AuditFinding(
                file: String(source[file]), line: Int(source[line]), column: Int(source[column]),
                name: String(source[name]), message: "")
        }
        if let match = unpositioned.firstMatch(in: source, range: range),
            let file = Range(match.range(at: 1), in: source), let name = Range(match.range(at: 2), in: source)
        {
            return AuditFinding(
                file: String(source[file]), line: nil, column: nil, name: String(source[name]), message: "")
        }
        return AuditFinding(file: source, line: nil, column: nil, name: "", message: "")
    }

    // The patterns are constants that compile; `try!` cannot fail.
    private static let positioned = try! NSRegularExpression(pattern: #"^(.*?):([0-9]+):([0-9]+) \((.*)\)$"#)
    private static let unpositioned = try! NSRegularExpression(pattern: #"^(.*?) \((.*)\)$"#)
}

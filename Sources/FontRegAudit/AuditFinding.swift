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

    private static func finding(
        _ source: String, family: String, style: String, missing: MissingFace, bold: Bool
    ) -> AuditFinding {
        var place = parse(source)
        let face = "\(family) \(missing.weight)\(style == "normal" ? "" : " \(style)")"
        place.message = "`\(place.name)` needs \(face)\(bold ? " under Bold Text" : ""): missing; \(missing.reason)"
        return place
    }

    /// Splits `file:line:column (name)` (``UseOrigin/description``) into its parts.
    static func parse(_ source: String) -> AuditFinding {
        var rest = Substring(source)
        var name = ""
        if rest.hasSuffix(")"), let open = rest.range(of: " (", options: .backwards) {
            name = String(rest[open.upperBound..<rest.index(before: rest.endIndex)])
            rest = rest[..<open.lowerBound]
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
            return AuditFinding(
                file: parts.dropLast(2).joined(separator: ":"), line: line, column: column, name: name, message: "")
        }
        return AuditFinding(file: String(rest), line: nil, column: nil, name: name, message: "")
    }
}

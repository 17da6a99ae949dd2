import Foundation

/// Renders the report as GitHub Actions workflow commands: an `::error` annotation per text style and missing face.
///
/// A pull request then shows "`font.weight.semibold` needs Lato 700 under Bold Text: missing" on
/// the line of the token file that declares the style; a summary `::notice` with the verdict ends the
/// output. An audit that found no text style ends with a `::warning` instead (never a success notice);
/// an input file that contributes nothing gets a `::warning` of its own.
package enum AuditGitHubRenderer {
    /// The workflow commands, one a line.
    package static func render(_ report: AuditReport) -> String {
        var lines: [String] = []
        for finding in AuditFinding.findings(in: report) {
            lines.append(annotation(finding, title: "missing font face"))
        }
        for finding in AuditFinding.coverageFindings(in: report) {
            lines.append(annotation(finding, title: "coverage gap", level: "warning"))
        }
        for finding in AuditFinding.inputWarnings(in: report) {
            lines.append(
                annotation(
                    finding, title: report.status == .nothingAudited ? "nothing audited" : "input contributes nothing",
                    level: "warning"))
        }
        for finding in AuditFinding.unusedFamilyFindings(in: report) {
            lines.append(annotation(finding, title: "family used by no text style", level: "notice"))
        }
        // Nothing audited is never a success: the warning above is the summary, no "0 of 0 found" notice.
        if report.status != .nothingAudited {
            let totals = report.totals
            lines.append(
                "::notice title=fontresolve audit::\(totals.foundFaces) of \(totals.requiredFaces) required faces found, \(totals.missingFaces) missing. \(escapeData(report.verdict))"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The annotation for an input that cannot be read.
    package static func render(_ error: AuditInputError) -> String {
        annotation(AuditFinding.finding(for: error), title: "token file error") + "\n"
    }

    /// One `::error` command.
    static func annotation(_ finding: AuditFinding, title: String, level: String = "error") -> String {
        var properties: [String] = []
        if !finding.file.isEmpty { properties.append("file=\(escapeProperty(finding.file))") }
        if let line = finding.line { properties.append("line=\(line)") }
        if let column = finding.column { properties.append("col=\(column)") }
        properties.append("title=\(escapeProperty(title))")
        return "::\(level) \(properties.joined(separator: ","))::\(escapeData(finding.message))"
    }

    /// Escapes a message as the runner expects (`%`, CR, LF).
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a property value (also `:` and `,`).
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

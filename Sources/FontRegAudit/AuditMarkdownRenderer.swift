import FontRegCore

/// Renders the report as GitHub-flavoured Markdown for a pull-request comment.
package enum AuditMarkdownRenderer {
    package static func render(_ report: AuditReport) -> String {
        var out = "## Font audit: \(status(report))\n\n"
        out +=
            "Inputs: \(report.inputs.map { "`\(AuditFormatting.path($0))`" }.joined(separator: ", ")) · Bold Text policy: `\(report.boldPolicy.rawValue)`\n\n"
        if report.status == .nothingAudited {
            out += "> \(escape(report.nothingAuditedMessage))\n\n"
        } else {
            for file in report.unusedInputs { out += "> ⚠️ \(escape(AuditReport.idleInputMessage(file)))\n\n" }
        }
        out += "**\(AuditFormatting.summary(report.totals))**\n\n"
        for family in report.families {
            out += "### \(escape(family.family))"
            if family.registeredFamily == nil {
                out += " — not registered"
                if !family.suggestions.isEmpty {
                    out += " (did you mean \(family.suggestions.map(escape).joined(separator: ", "))?)"
                }
            }
            out += "\n\n"
            if !family.fallbacks.isEmpty {
                out += "Fallbacks (not audited): \(family.fallbacks.map(escape).joined(separator: ", "))\n\n"
            }
            out += "| style | weight | needed for | face | file | size |\n|---|---:|---|---|---|---:|\n"
            for style in family.styles {
                var rows: [(Int, String)] = []
                for face in style.faces {
                    rows.append(
                        (
                            face.weight,
                            "| \(style.style) | \(face.weight) | \(AuditFormatting.roles(face.roles)) | ✅ `\(face.postscriptName)`\(face.variable ? " (variable)" : "") | `\(fileName(face.file))` | \(AuditFormatting.size(face.bytes)) |"
                        ))
                }
                for missing in style.missing {
                    let standIn =
                        missing.standIn.map { "`\($0.postscriptName)` (\($0.weight)) stands in" }
                        ?? "nothing in the family stands in"
                    rows.append(
                        (
                            missing.weight,
                            "| \(style.style) | \(missing.weight) | \(AuditFormatting.roles(missing.roles)) | ❌ **missing** | \(standIn) | |"
                        ))
                }
                out += rows.sorted { $0.0 < $1.0 }.map { $0.1 + "\n" }.joined()
            }
            out += "\n"
            let offGrid = family.styles.flatMap { style in
                style.weights.filter { $0.servedBy != $0.used }.map { (style.style, $0) }
            }
            for (style, plan) in offGrid {
                out +=
                    "- \(style) \(plan.used) is off the grid: the \(plan.servedBy) face serves it; Bold Text needs \(plan.boldTextServedBy).\n"
            }
            let shippedFiles = Set(family.styles.flatMap { $0.faces.map(\.file) })
            for style in family.styles {
                for standIn in style.standIns where !shippedFiles.contains(standIn.file) {
                    out +=
                        "- ships `\(fileName(standIn.file))` as the stand-in for the missing \(style.style) \(standIn.weight) (`\(standIn.postscriptName)`).\n"
                }
            }
            let unneeded = family.styles.flatMap(\.unneeded)
            if !unneeded.isEmpty {
                out +=
                    "\n<details><summary>Drop \(unneeded.count) unneeded file\(unneeded.count == 1 ? "" : "s") (\(AuditFormatting.size(family.totals.unneededBytes)))</summary>\n\n"
                out += unneeded.map {
                    "- `\(fileName($0.file))` (\($0.weights.map(String.init).joined(separator: ", ")), \(AuditFormatting.size($0.bytes)))\n"
                }.joined()
                out += "\n</details>\n"
            }
            out += "\n"
        }
        if !report.unusedFamilies.isEmpty {
            out +=
                "Declared but used by no text style: \(report.unusedFamilies.map { "`\($0.family)`" }.joined(separator: ", "))\n\n"
        }
        if !report.notAuditable.isEmpty {
            out +=
                "Not auditable (generic or system names): \(report.notAuditable.map { "`\($0.name)`" }.joined(separator: ", "))\n\n"
        }
        if let gaps = report.coverage {
            out += "#### Coverage\n\n"
            if gaps.isEmpty { out += "Every required face covers the languages and samples asked for.\n\n" }
            for gap in gaps { out += "- \(escape(gap.summary))\n" }
            if !gaps.isEmpty { out += "\n" }
        }
        if !report.notes.isEmpty {
            out +=
                "<details><summary>Notes</summary>\n\n" + report.notes.map { "- \(escape($0))\n" }.joined()
                + "\n</details>\n"
        }
        return out
    }

    /// The heading's verdict: ✅ only when the report is complete.
    static func status(_ report: AuditReport) -> String {
        switch report.status {
        case .complete: return "✅ complete"
        case .nothingAudited: return "⚠️ nothing audited: no text style found"
        case .incomplete:
            var parts: [String] = []
            let missing = report.totals.missingFaces
            if missing > 0 { parts.append("\(missing) required face\(missing == 1 ? "" : "s") missing") }
            let uncovered = report.uncoveredCharacters.count
            if uncovered > 0 {
                parts.append("\(uncovered) sample character\(uncovered == 1 ? "" : "s") no face draws")
            }
            return "❌ " + (parts.isEmpty ? "incomplete" : parts.joined(separator: ", "))
        }
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Escapes the characters that would break a table cell or start markup.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if "|*_`<>[]".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

import FontRegCore
import Foundation

/// Renders the report as aligned plain-text tables for a terminal.
package enum AuditTextRenderer {
    package static func render(_ report: AuditReport) -> String {
        var out =
            "Font audit of \(report.inputs.map(AuditFormatting.path).joined(separator: ", ")) — Bold Text policy: \(report.boldPolicy.rawValue)\n"
        for family in report.families {
            out += "\n" + header(family) + "\n"
            var rows: [[String]] = [["style", "weight", "needed for", "face", "file", "size"]]
            for style in family.styles {
                var lines: [(Int, [String])] = []
                for face in style.faces {
                    lines.append(
                        (
                            face.weight,
                            [
                                style.style, AuditFormatting.weight(face.weight), AuditFormatting.roles(face.roles),
                                face.postscriptName + (face.variable ? " (variable)" : ""),
                                AuditFormatting.path(face.file), AuditFormatting.size(face.bytes),
                            ]
                        ))
                }
                for missing in style.missing {
                    let standIn =
                        missing.standIn.map {
                            "\($0.postscriptName) (\($0.weight)\($0.style == style.style ? "" : " " + $0.style)) stands in"
                        } ?? "no face of the family stands in"
                    lines.append(
                        (
                            missing.weight,
                            [
                                style.style, AuditFormatting.weight(missing.weight),
                                AuditFormatting.roles(missing.roles), "MISSING", standIn, "",
                            ]
                        ))
                }
                rows += lines.sorted { $0.0 < $1.0 }.map(\.1)
            }
            if rows.count > 1 { out += table(rows, indent: "  ") }
            for style in family.styles {
                for plan in style.weights where plan.servedBy != plan.used {
                    out +=
                        "  \(style.style) \(plan.used) is off the grid: the \(plan.servedBy) face serves it, Bold Text needs \(plan.boldTextServedBy)\n"
                }
            }
            // A stand-in already shipped for its own weight needs no line; the MISSING row names it.
            let shippedFiles = Set(family.styles.flatMap { $0.faces.map(\.file) })
            for style in family.styles {
                for standIn in style.standIns where !shippedFiles.contains(standIn.file) {
                    out +=
                        "  ship \(standIn.postscriptName) (\(AuditFormatting.path(standIn.file))) as the stand-in for the missing \(style.style) \(standIn.weight) (\(AuditFormatting.roles(standIn.roles)))\n"
                }
            }
            let unneeded = family.styles.flatMap(\.unneeded)
            if !unneeded.isEmpty {
                let what = unneeded.count == 1 ? "this file" : "these \(unneeded.count) files"
                out +=
                    "  drop — no required weight uses \(what) (\(AuditFormatting.size(family.totals.unneededBytes))):\n"
                out += table(
                    unneeded.map {
                        [
                            AuditFormatting.path($0.file), $0.weights.map(String.init).joined(separator: ","),
                            AuditFormatting.size($0.bytes),
                        ]
                    }, indent: "    ")
            }
            out += "  " + AuditFormatting.summary(family.totals) + "\n"
        }
        if !report.notAuditable.isEmpty {
            out +=
                "\nNot auditable (generic or system names, the platform decides): "
                + report.notAuditable.map { "\($0.name) (\($0.usedBy.count) style\($0.usedBy.count == 1 ? "" : "s"))" }
                .joined(separator: ", ") + "\n"
        }
        out += unused(report)
        out += variableFonts(report.variableFonts)
        out += coverage(report)
        if !report.notes.isEmpty {
            out += "\nNotes:\n" + report.notes.map { "  - \($0)\n" }.joined()
        }
        out += "\nTotal: " + AuditFormatting.summary(report.totals) + "\n"
        return out + report.verdict + "\n"
    }

    /// Declared families no style uses, and input files that contribute nothing (warnings).
    static func unused(_ report: AuditReport) -> String {
        var out = ""
        if !report.unusedFamilies.isEmpty {
            out += "\nDeclared but used by no text style (not audited, not shipped):\n"
            for family in report.unusedFamilies {
                out +=
                    "  \(family.family), declared at \(family.declaredAt.map(AuditFormatting.path).joined(separator: ", "))\n"
            }
        }
        if report.status != .nothingAudited {
            for file in report.unusedInputs { out += "\nWarning: \(AuditReport.idleInputMessage(file))\n" }
        }
        return out
    }

    static func header(_ family: FamilyAudit) -> String {
        var text = family.family
        if let registered = family.registeredFamily {
            if registered != family.family { text += "  (registered as \"\(registered)\")" }
        } else {
            text += "  (NOT REGISTERED"
            if !family.suggestions.isEmpty { text += "; did you mean \(family.suggestions.joined(separator: ", "))?" }
            text += ")"
        }
        if !family.fallbacks.isEmpty { text += "  fallbacks, not audited: \(family.fallbacks.joined(separator: ", "))" }
        if family.supportedWeights != FontWeight.steps.map(\.value) {
            text += "  supported weights: \(family.supportedWeights.map(String.init).joined(separator: ", "))"
        }
        return text
    }

    /// Left-aligned columns separated by two spaces.
    static func table(_ rows: [[String]], indent: String) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        return rows.map { row in
            var line = indent
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line + "\n"
        }.joined()
    }

    /// The coverage section (issue 12): what each required face lacks and which face stands in.
    static func coverage(_ report: AuditReport) -> String {
        guard let gaps = report.coverage else { return "" }
        let asked = (report.languages ?? []) + (report.samples ?? []).map { "\"\($0)\"" }
        var out = "\nCoverage of \(asked.joined(separator: ", ")):\n"
        if gaps.isEmpty { return out + "  every required face covers them\n" }
        for gap in gaps {
            out += "  \(gap.faceDescription):\n"
            if !gap.missingCharacters.isEmpty {
                out += "    lacks \(gap.missingCharacters.joined(separator: ", "))\n"
            }
            if !gap.missingLanguages.isEmpty {
                out += "    does not cover the languages \(gap.missingLanguages.joined(separator: ", "))\n"
            }
            for standIn in gap.standIns {
                out +=
                    "    \(standIn.postscriptName) (\(standIn.family) \(standIn.weight)\(standIn.italic ? " italic" : "")) stands in for \"\(standIn.characters)\"\n"
            }
            if !gap.uncovered.isEmpty {
                out += "    no registered face covers \(gap.uncovered.joined(separator: ", "))\n"
            }
        }
        return out
    }

    /// The variable-font section: the `wght` range used and what instancing saves.
    static func variableFonts(_ uses: [VariableFontUse]) -> String {
        guard !uses.isEmpty else { return "" }
        var out = "\nVariable fonts (wght axis):\n"
        for use in uses {
            let used = use.used.map(String.init).joined(separator: ", ")
            out +=
                "  \(use.postscriptName) (\(AuditFormatting.path(use.file)), \(AuditFormatting.size(use.bytes))): axis \(use.axis[0])–\(use.axis[1]), uses \(used)\n"
            if use.advice == "pin" {
                out +=
                    "    pin to \(use.used.count) static face\(use.used.count == 1 ? "" : "s") of about \(AuditFormatting.size(use.staticInstanceBytes)) each: saves about \(AuditFormatting.size(use.savedBytes))\n"
            } else {
                out +=
                    "    trim the axis to \(use.used.first ?? use.axis[0])–\(use.used.last ?? use.axis[1]) (static faces would be larger)\n"
            }
            out += use.commands.map { "    $ \($0)\n" }.joined()
        }
        return out
    }
}

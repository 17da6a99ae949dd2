import FontRegCore
import Foundation

/// Renders the report as one self-contained HTML page a designer can open: per family a grid of
/// weights × styles, each cell drawing a sample in that very face as SVG paths.
///
/// Nothing is loaded from elsewhere: the glyphs are outlines FreeType took from the font files
/// (``FreeTypeOutline``), so the page shows the real faces without installing them.
package enum AuditHTMLRenderer {
    /// The line drawn in every cell.
    static let sample = "Hamburgefonstiv 0123"

    /// The state of one cell of the grid.
    enum CellStatus: String {
        case used, boldText = "bold-text", usedAndBoldText = "used bold-text", missing, unneeded, available, absent

        var label: String {
            switch self {
            case .used: "used"
            case .boldText: "needed for Bold Text"
            case .usedAndBoldText: "used · needed for Bold Text"
            case .missing: "MISSING"
            case .unneeded: "unneeded"
            case .available: "in a shipped file, not required"
            case .absent: "not in the family"
            }
        }
    }

    /// Builds the page.
    ///
    /// - Parameters:
    ///   - report: the audit.
    ///   - faces: the registered faces the audit ran against (to draw every cell).
    package static func render(_ report: AuditReport, faces: [FaceRecord]) -> String {
        var body = ""
        let status =
            switch report.status {
            case .complete: "complete"
            case .nothingAudited: "nothing audited: no text style found"
            case .incomplete:
                report.totals.missingFaces > 0
                    ? "\(report.totals.missingFaces) required face\(report.totals.missingFaces == 1 ? "" : "s") missing"
                    : "incomplete"
            }
        body += "<header><h1>Font audit: \(escape(status))</h1>"
        if report.status != .complete { body += "<p class=\"verdict\">\(escape(report.verdict))</p>" }
        body +=
            "<p>\(escape(report.inputs.map(AuditFormatting.path).joined(separator: ", "))) · Bold Text policy <code>\(escape(report.boldPolicy.rawValue))</code></p>"
        body += "<p class=\"summary\">\(escape(AuditFormatting.summary(report.totals)))</p>"
        body += legend() + "</header>\n"
        let byFamily = Dictionary(grouping: faces) { FamilyKey($0.family).value }
        for family in report.families {
            body += section(family, faces: byFamily[FamilyKey(family.family).value] ?? [])
        }
        if !report.notAuditable.isEmpty {
            body +=
                "<section class=\"not-auditable\"><h2>Not auditable</h2><p>Generic or system names: the platform decides what they draw.</p><ul>"
            body += report.notAuditable.map {
                "<li><code>\(escape($0.name))</code> — \($0.usedBy.count) text style\($0.usedBy.count == 1 ? "" : "s")</li>"
            }.joined()
            body += "</ul></section>\n"
        }
        if let gaps = report.coverage {
            body += "<section class=\"coverage\"><h2>Coverage</h2><ul>"
            if gaps.isEmpty { body += "<li>Every required face covers the languages and samples asked for.</li>" }
            body += gaps.map { "<li>\(escape($0.summary))</li>" }.joined() + "</ul></section>\n"
        }
        if !report.notes.isEmpty {
            body +=
                "<section class=\"notes\"><h2>Notes</h2><ul>" + report.notes.map { "<li>\(escape($0))</li>" }.joined()
                + "</ul></section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Font audit: \(escape(status))</title>
            <style>\(css)</style></head>
            <body>
            \(body)
            </body></html>

            """
    }

    private static func legend() -> String {
        let items: [CellStatus] = [.used, .boldText, .missing, .unneeded, .available]
        return "<ul class=\"legend\">"
            + items.map { "<li class=\"cell \($0.rawValue)\">\(escape($0.label))</li>" }.joined() + "</ul>"
    }

    private static func section(_ family: FamilyAudit, faces: [FaceRecord]) -> String {
        var out = "<section class=\"family\" data-family=\"\(escape(family.family))\"><h2>\(escape(family.family))</h2>"
        if family.registeredFamily == nil {
            out +=
                "<p class=\"warning\">Not registered: no face of this family was found; a system font stands in for every style."
            if !family.suggestions.isEmpty {
                out += " Did you mean \(escape(family.suggestions.joined(separator: ", ")))?"
            }
            out += "</p>"
        }
        out += "<p>\(escape(AuditFormatting.summary(family.totals)))</p>"
        let styles = family.styles.map(\.style)
        var weights = Set(FontWeight.steps.map(\.value))
        for style in family.styles {
            weights.formUnion(style.required)
            weights.formUnion(style.used)
        }
        out +=
            "<table class=\"grid\"><thead><tr><th>weight</th>" + styles.map { "<th>\(escape($0))</th>" }.joined()
            + "</tr></thead><tbody>"
        for weight in weights.sorted() {
            out += "<tr><th>\(escape(AuditFormatting.weight(weight)))</th>"
            for style in family.styles {
                out += cell(weight: weight, style: style, faces: faces)
            }
            out += "</tr>"
        }
        out += "</tbody></table>"
        let unneeded = family.styles.flatMap(\.unneeded)
        if !unneeded.isEmpty {
            out +=
                "<details><summary>Drop \(unneeded.count) unneeded file\(unneeded.count == 1 ? "" : "s") (\(escape(AuditFormatting.size(family.totals.unneededBytes))))</summary><ul>"
            out += unneeded.map {
                "<li><code>\(escape(AuditFormatting.path($0.file)))</code> \(escape(AuditFormatting.size($0.bytes)))</li>"
            }.joined()
            out += "</ul></details>"
        }
        return out + "</section>\n"
    }

    private static func cell(weight: Int, style: StyleAudit, faces: [FaceRecord]) -> String {
        let styleFaces = faces.filter { $0.style.rawValue == style.style }
        var status = CellStatus.absent
        var drawn: FaceRecord?
        var caption = ""
        if let shipped = style.faces.first(where: { $0.weight == weight }) {
            let roles = Set(shipped.roles)
            status = roles.count == 2 ? .usedAndBoldText : (roles.contains("used") ? .used : .boldText)
            drawn = faces.first { $0.postscriptName == shipped.postscriptName && $0.file == shipped.file }
            caption = shipped.postscriptName + (shipped.variable ? " @\(weight)" : "")
        } else if let missing = style.missing.first(where: { $0.weight == weight }) {
            status = .missing
            if let standIn = missing.standIn {
                drawn = faces.first { $0.postscriptName == standIn.postscriptName && $0.file == standIn.file }
                caption = "stand-in today: \(standIn.postscriptName) (\(standIn.weight))"
            } else {
                caption = "no face of the family: a system font stands in"
            }
        } else if let plan = style.weights.first(where: { $0.used == weight && $0.servedBy != weight }) {
            // An off-grid weight drawn by the step that serves it.
            status = .used
            let serving = style.faces.first { $0.weight == plan.servedBy }
            drawn =
                serving.flatMap { shipped in
                    faces.first { $0.postscriptName == shipped.postscriptName && $0.file == shipped.file }
                }
                ?? StandInMatcher.match(
                    weight: plan.servedBy, style: FontStyle(rawValue: style.style) ?? .normal, in: faces)
            caption =
                "no face of exactly \(weight): drawn by the \(plan.servedBy) face\(drawn.map { " " + $0.postscriptName } ?? "")"
        } else if let face = Auditor.exactFace(weight, in: styleFaces) {
            let dropped =
                style.unneeded.contains { $0.file == face.file }
                || !style.faces.contains { $0.file == face.file }
            status = dropped ? .unneeded : .available
            drawn = face
            caption = face.postscriptName
        }
        var content = ""
        if let drawn {
            let coordinate =
                drawn.instance == nil && !drawn.axes.isEmpty ? Double(status == .missing ? drawn.weight : weight) : nil
            do {
                let outlined = try FreeTypeOutline.outline(
                    text: sample, file: drawn.file, faceIndex: drawn.freetypeIndex, weight: coordinate, pixelSize: 22)
                content = svg(outlined, label: "\(sample) in \(drawn.postscriptName)")
            } catch {
                content = "<p class=\"error\">\(escape(error.description))</p>"
            }
        }
        return
            "<td class=\"cell \(status.rawValue)\" data-weight=\"\(weight)\" data-style=\"\(escape(style.style))\" data-status=\"\(status.rawValue)\">"
            + content
            + "<div class=\"tag\"><b>\(escape(status.label))</b>\(caption.isEmpty ? "" : " · " + escape(caption))</div></td>"
    }

    private static func svg(_ text: OutlinedText, label: String) -> String {
        let height = text.ascent + text.descent
        let width = max(text.width, 1)
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(escape(label))\" width=\"\(number(width))\" height=\"\(number(height))\" viewBox=\"0 \(number(-text.ascent)) \(number(width)) \(number(height))\"><path d=\"\(text.pathData)\"/></svg>"
    }

    /// Escapes text for HTML element content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    private static let css = """
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d1d1f;background:#fff}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 6px}
        .summary{font-weight:600}.warning{color:#a40000;font-weight:600}
        .legend{list-style:none;padding:0;display:flex;gap:8px;flex-wrap:wrap}
        .legend li{padding:2px 8px;border-radius:4px}
        table.grid{border-collapse:separate;border-spacing:4px}
        table.grid th{text-align:left;font-weight:500;color:#555;padding:0 6px}
        td.cell{vertical-align:top;padding:6px 8px;border-radius:6px;min-width:300px;border:2px solid transparent}
        .cell svg{display:block;fill:#111}
        .cell .tag{font-size:11px;color:#333;margin-top:2px}
        .used{background:#e3f6e6;border-color:#3a9d4d!important}
        .bold-text{background:#e4edff;border-color:#3d6fd6!important}
        .used.bold-text{background:linear-gradient(90deg,#e3f6e6,#e4edff)}
        .missing{background:#ffe6e3;border-color:#d2281b!important;border-style:dashed!important}
        .missing svg{fill:#b9817c}
        .missing .tag b{color:#b3170b}
        .unneeded{background:#f2f2f2}.unneeded svg{fill:#9a9a9a}
        .available{background:#fafafa}.available svg{fill:#6a6a6a}
        .absent{background:#fcfcfc}.absent .tag b{font-weight:400;color:#aaa}
        code{font:12px ui-monospace,monospace}
        """
}

import FontRegCore
import FontRegProtocol
import Foundation

/// `fontresolve resolve FAMILY[,FAMILY…] --text TEXT [--lang TAG]`: runs with their faces (issue 12).
enum ResolveTextCommand {
    /// Resolves the text with the query's style; the family argument is read as a CSS stack.
    static func run(_ context: CommandContext, query: ResolveQuery, text: String, explain: Bool) throws(CLIError)
        -> ExitStatus
    {
        let stack = TextQuery(
            families: TextQuery.families(from: query.family), style: query, language: context.arguments.value("lang"))
        let reply = try context.backend().resolveText(
            text, stack, explain: explain, statingBoldText: ResolveCommand.statesBoldText(context.arguments))
        context.print(reply) { render($0, explain: explain, console: context.console) }
        return .success
    }

    /// The runs for people: each run's text and offsets, its face and weight, and why.
    package static func render(_ reply: TextReply, explain: Bool, console: Console) -> String {
        var lines: [String] = []
        for run in reply.runs {
            let shown = run.text.replacingOccurrences(of: "\n", with: "⏎")
            lines.append("\"\(shown)\"  bytes \(run.start)..<\(run.end)  utf16 \(run.startUTF16)..<\(run.endUTF16)")
            let marker = run.fallback ? "  " + console.styled("[fallback]", .yellow) : ""
            lines.append("  " + console.styled(run.postscriptName, .bold) + marker)
            lines.append("  weight:    \(run.weight)\(run.italic ? ", italic" : "")")
            if !run.variations.isEmpty {
                let axes = run.variations.sorted { $0.key < $1.key }
                    .map { VariationSetting(tag: $0.key, value: $0.value).description }
                lines.append("  variations: \(axes.joined(separator: " "))")
            }
            if !run.synthesis.isEmpty { lines.append("  synthesis: \(run.synthesis)") }
            lines.append("  why:       \(run.reason)")
            if explain {
                for (n, step) in (run.trace ?? []).enumerated() { lines.append("    \(n + 1). \(step)") }
            }
        }
        if !reply.missing.isEmpty {
            let points = reply.missing.map { "U+" + String($0, radix: 16, uppercase: true).leftPadded(to: 4) }
            lines.append(
                console.styled("missing:", .red) + " \(points.joined(separator: " ")) (no registered face covers them)")
        }
        if let assumed = reply.assumedLanguage {
            lines.append("Han drawn as \(assumed) (no --lang given)")
        }
        return lines.joined(separator: "\n")
    }
}

/// `fontresolve face NAME --covers TEXT` (issue 12).
enum FaceCoverageCommand {
    /// Prints what the face lacks of the text.
    static func run(_ context: CommandContext, postscriptName: String, text: String) throws(CLIError) -> ExitStatus {
        let reply = try context.backend().faceCoverage(postscriptName: postscriptName, text: text)
        context.print(reply) { render($0, console: context.console) }
        return .success
    }

    /// The face, the characters it lacks, and its languages, for people.
    package static func render(_ reply: FaceCoverageReply, console: Console) -> String {
        var lines = [console.styled(reply.postscriptName, .bold) + "  (\(reply.codePoints) code points)"]
        if reply.missing.isEmpty {
            lines.append("  covers every character of the text")
        } else {
            for point in reply.missing {
                let scalar = Unicode.Scalar(UInt32(point)).map { String(Character($0)) } ?? "?"
                lines.append("  missing:   U+\(String(point, radix: 16, uppercase: true).leftPadded(to: 4))  \(scalar)")
            }
        }
        lines.append("  languages: \(reply.languages.joined(separator: " "))")
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Foundation
import Varlink

/// `fontresolve audit FILE… [--fonts DIR] [--bold-policy P] [--json] [--markdown] [--report FILE.html] [--format F]`.
///
/// The command as a library function, so the client can call it with faces fetched from the
/// daemon, and tests can call it in-process. It writes nothing to the terminal itself.
///
/// Exit codes: 0 every required face is there; 1 something required is missing; 2 an input
/// (or a `--fonts` directory) could not be read; 64 bad usage; 73 the `--report` file could not be written.
package enum AuditCommand {
    /// What the command printed and how it ended.
    package struct Result: Sendable {
        /// The rendered report (table, JSON or Markdown).
        package var stdout: String
        /// Errors and the line saying where the HTML report went.
        package var stderr: String
        /// 0, 1, 2, 64 or 73 (see ``AuditCommand``).
        package var exitCode: Int32
        /// The computed report, when the inputs could be read.
        package var report: AuditReport?
    }

    /// The usage line shown with usage errors.
    package static let usage = """
        usage: fontresolve audit FILE… [--fonts DIR]… [--rules DIR] [--system-fonts] [--bold-policy P]
                                       [--json | --markdown] [--report FILE.html] [--format F] [--include-deprecated]
          FILE               design tokens (DTCG or Tokens Studio JSON), Swift source files or folders
                             (YMatterType), or a native text-style list; several inputs add up
          --fonts DIR        audit against the fonts in DIR, scanned in process (else the faces given by the caller)
          --bold-policy P    next-heavier (default), ios-system, android, css-bolder
          --format F         dtcg, tokens-studio, swift, native (default: detected from the content)
          --report FILE      also write a self-contained HTML page drawing every face
        exit: 0 complete, 1 a required face is missing, 2 an input cannot be read, 64 usage, 73 report not written
        """

    static let parser = ArgumentParser(
        options: ["fonts", "rules", "bold-policy", "report", "format"],
        flags: ["json", "markdown", "system-fonts", "include-deprecated"])

    /// Runs the audit.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after `audit`.
    ///   - faces: the registry's contents (from the daemon). Ignored when `--fonts`, `--rules` or
    ///     `--system-fonts` ask for an in-process registry; an empty index when `nil`.
    ///   - rules: family rules whose `supportedWeights` limit Bold Text (from the daemon); `--rules` overrides.
    /// - Returns: output, exit code and the report.
    package static func run(arguments: [String], faces: FontIndex? = nil, rules: RuleSet? = nil) -> Result {
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse(arguments)
        } catch {
            return Result(stdout: "", stderr: "fontresolve audit: \(error)\n\(usage)\n", exitCode: 64)
        }
        guard !parsed.positional.isEmpty else {
            return Result(
                stdout: "", stderr: "fontresolve audit: give at least one input file\n\(usage)\n", exitCode: 64)
        }
        if parsed.has("json") && parsed.has("markdown") {
            return Result(
                stdout: "", stderr: "fontresolve audit: --json and --markdown exclude each other; choose one\n",
                exitCode: 64)
        }
        var policy = BoldTextPolicy.nextHeavier
        if let name = parsed.value("bold-policy") {
            guard let given = BoldTextPolicy(name: name) else {
                return Result(
                    stdout: "",
                    stderr:
                        "fontresolve audit: unknown Bold Text policy \"\(name)\"; use one of: \(BoldTextPolicy.allCases.map(\.rawValue).joined(separator: ", "))\n",
                    exitCode: 64)
            }
            policy = given
        }
        var format: AuditInputFormat?
        if let name = parsed.value("format") {
            guard let given = AuditInputFormat(name: name) else {
                return Result(
                    stdout: "", stderr: "fontresolve audit: \(AuditInputError.unknownFormatName(name))\n", exitCode: 64)
            }
            format = given
        }

        var documents: [TypographyDocument] = []
        for path in parsed.positional {
            do {
                documents.append(
                    try TypographyReader.read(
                        path: path, format: format, includeDeprecated: parsed.has("include-deprecated")))
            } catch {
                return Result(stdout: "", stderr: "fontresolve audit: \(error)\n", exitCode: 2)
            }
        }

        var index = faces ?? FontIndex(faces: [])
        var ruleSet = rules ?? .empty
        var extraNotes: [String] = []
        if parsed.has("system-fonts") || !parsed.values("fonts").isEmpty || parsed.value("rules") != nil {
            do {
                let registry = try EmbeddedRegistry.open(parsed)
                index = registry.index
                ruleSet = registry.rules
            } catch {
                return Result(stdout: "", stderr: "fontresolve audit: \(error)\n", exitCode: 2)
            }
        } else if faces == nil {
            extraNotes.append(
                "no fonts given: every face counts as missing; pass --fonts DIR or run against the daemon")
        }
        for problem in index.problems {
            extraNotes.append("font file not usable, left out: \(problem.path): \(problem.reason)")
        }

        var supported: [String: [Int]] = [:]
        var aliases: [String: String] = [:]
        for use in documents.flatMap(\.uses) {
            guard let family = FamilyStack(use.familyStack).primary else { continue }
            var target = family
            if let alias = ruleSet.alias(family) {
                target = alias.target
                aliases[family] = alias.target
                if alias.deprecated {
                    extraNotes.append(
                        "\(family) is a deprecated alias of \(alias.target); use \(alias.target) in the design system")
                }
            }
            if let weights = ruleSet.rule(for: target)?.supportedWeights { supported[family] = weights }
        }
        var seenNotes = Set<String>()
        extraNotes = extraNotes.filter { seenNotes.insert($0).inserted }
        let auditor = Auditor(configuration: .init(boldPolicy: policy, supportedWeights: supported, aliases: aliases))
        let snapshot = index
        var report = auditor.audit(documents, faces: index.faces, suggestions: { snapshot.suggestions(for: $0) })
        report.notes += extraNotes

        let stdout: String
        if parsed.has("json") {
            stdout = AuditJSONRenderer.render(report)
        } else if parsed.has("markdown") {
            stdout = AuditMarkdownRenderer.render(report)
        } else {
            stdout = AuditTextRenderer.render(report)
        }
        var stderr = ""
        if let reportPath = parsed.value("report") {
            let html = AuditHTMLRenderer.render(report, faces: index.faces)
            do {
                try Data(html.utf8).write(to: URL(fileURLWithPath: reportPath), options: .atomic)
                stderr += "fontresolve audit: wrote the HTML report to \(reportPath)\n"
            } catch {
                return Result(
                    stdout: stdout,
                    stderr:
                        "fontresolve audit: cannot write the report to \(reportPath) (\(error.localizedDescription)); check that its folder exists and is writable\n",
                    exitCode: 73, report: report)
            }
        }
        return Result(stdout: stdout, stderr: stderr, exitCode: report.complete ? 0 : 1, report: report)
    }
}

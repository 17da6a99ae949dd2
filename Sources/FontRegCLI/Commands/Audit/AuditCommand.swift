import FontRegAudit
import FontRegCore
import Foundation

/// `fontresolve audit FILE… [--fonts DIR] [--bold-policy P] [--json] [--markdown] [--report FILE.html] [--format F]
/// [--emit FORMAT --out DIR] [--copy-fonts DIR]`.
///
/// The command as a library function, so the client can call it with faces fetched from the
/// daemon, and tests can call it in-process. It writes nothing to the terminal itself.
///
/// Exit codes: 0 every required face is there; 1 something required is missing (a face, or a face
/// drawing a `--sample` character); 2 an input (or a `--fonts` directory) could not be read; 64 bad
/// usage; 65 no text style found in the inputs, so nothing was audited; 73 the `--report` file or the
/// emitted wiring could not be written.
package enum AuditCommand {
    /// What the command printed and how it ended.
    package struct Result: Sendable {
        /// The rendered report (table, JSON, Markdown, SARIF or workflow annotations).
        package var stdout: String
        /// Errors and the lines saying where the HTML report and the wiring went.
        package var stderr: String
        /// 0, 1, 2, 64, 65 or 73 (see ``AuditCommand``).
        package var exitCode: Int32
        /// The computed report, when the inputs could be read.
        package var report: AuditReport?
    }

    /// The usage line shown with usage errors.
    package static let usage = """
        usage: fontresolve audit FILE… [--fonts DIR]… [--rules DIR] [--system-fonts] [--bold-policy P]
                                       [--json | --markdown | --format sarif | --format github]
                                       [--report FILE.html] [--format F] [--include-deprecated]
                                       [--theme NAME] [--explain]
                                       [--emit FORMAT]… [--out DIR] [--copy-fonts DIR]
          FILE               design tokens (DTCG, Tokens Studio, Style Dictionary or Figma Variables JSON
                             or JSON5; files, folders or globs, merged before references resolve; a Tokens
                             Studio sync folder), CSS, TypeScript/JavaScript modules of plain object
                             literals, Swift source files or folders (YMatterType), or a native list
          --fonts DIR        audit against the fonts in DIR, scanned in process (else the faces given by the caller)
          --bold-policy P    next-heavier (default), ios-system, android, css-bolder
          --format F         input: dtcg, tokens-studio, style-dictionary, figma-variables, css, js-module,
                             swift, native (default: detected);
                             output: sarif, github
          --theme NAME       audit only this theme of a Tokens Studio sync folder (default: every theme)
          --explain          note which tokens made each style assembled from sibling tokens
          --report FILE      also write a self-contained HTML page drawing every face
          --emit FORMAT      write the wiring into --out: css, android, ios, flutter, style-dictionary
          --copy-fonts DIR   copy exactly the font files the design system needs, with their licences
          --lang TAG[,TAG…]  report the languages each required face does not cover, and what stands in
          --sample TEXT      report the characters of TEXT each required face lacks, and what stands in
        exit: 0 complete, 1 a required face is missing, 2 an input cannot be read, 64 usage,
              65 no text style found (nothing audited), 73 output not written
        """

    static let parser = ArgumentParser(
        options: [
            "fonts", "rules", "bold-policy", "report", "format", "emit", "out", "copy-fonts", "lang", "sample", "theme",
            "ios-api", "ios-prefix",
        ],
        flags: ["json", "markdown", "system-fonts", "include-deprecated", "explain"])

    /// Runs the audit.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after `audit`.
    ///   - faces: the registry's contents (from the daemon). Ignored when `--fonts`, `--rules` or
    ///     `--system-fonts` ask for an in-process registry; an empty index when `nil`.
    ///   - rules: family rules whose `supportedWeights` limit Bold Text (from the daemon); `--rules` overrides.
    ///   - backend: the daemon, for the coverage of `--lang`/`--sample` (`FaceCoverage`, `ResolveText`).
    /// - Returns: output, exit code and the report.
    package static func run(
        arguments: [String], faces: FontIndex? = nil, rules: RuleSet? = nil, backend: (any RegistryBackend)? = nil
    ) -> Result {
        let options: AuditOptions
        do {
            options = try AuditOptions(arguments: arguments)
        } catch {
            return Result(
                stdout: "", stderr: "fontresolve audit: \(error.message)\n\(error.showUsage ? usage + "\n" : "")",
                exitCode: 64)
        }
        let documents: [TypographyDocument]
        do {
            documents = try TypographyReader.read(
                paths: options.inputs, format: options.inputFormat, includeDeprecated: options.includeDeprecated,
                theme: options.parsed.value("theme"))
        } catch {
            // In CI the broken line is annotated like a missing face, so the pull request shows it.
            let annotation =
                switch options.outputFormat {
                case .github: AuditGitHubRenderer.render(error)
                case .sarif: AuditSARIFRenderer.render(error)
                default: ""
                }
            return Result(stdout: annotation, stderr: "fontresolve audit: \(error)\n", exitCode: 2)
        }
        let registry: (index: FontIndex, rules: RuleSet, notes: [String])
        var coverageBackend = backend
        do {
            let embedded = options.inProcess ? try EmbeddedBackend(arguments: options.parsed) : nil
            if let embedded { coverageBackend = embedded }
            registry = try openRegistry(options, faces: faces, rules: rules, embedded: embedded?.registry)
        } catch {
            // A missing --fonts path exits as in every other command (66); anything else as an unreadable input.
            let status = (error as? CLIError)?.exitStatus.rawValue ?? ExitStatus.auditInputUnreadable.rawValue
            return Result(stdout: "", stderr: "fontresolve audit: \(error)\n", exitCode: status)
        }
        var report = audit(documents, options: options, registry: registry)
        if options.parsed.has("explain") { report.notes += explanations(documents) }
        report.variableFonts = VariableFontSavings.estimate(
            AuditWiring(report: report, faces: registry.index.faces, uses: documents.flatMap(\.uses)))
        let languages = options.languages + documents.flatMap(\.languages)
        let samples = options.samples + documents.flatMap(\.samples)
        if !languages.isEmpty || !samples.isEmpty {
            report.languages = languages
            report.samples = samples
            do {
                report.apply(
                    coverage: try coverage(
                        report, languages: languages, samples: samples, backend: coverageBackend,
                        faces: registry.index.faces))
            } catch {
                return Result(stdout: "", stderr: "fontresolve audit: \(error)\n", exitCode: 2)
            }
        }
        return output(report, documents: documents, options: options, index: registry.index)
    }

    /// `--explain`: for every text style, the tokens it was made of.
    static func explanations(_ documents: [TypographyDocument]) -> [String] {
        documents.flatMap(\.uses).map { use in
            let made =
                use.madeOf.isEmpty ? "written as one style" : "assembled from \(use.madeOf.joined(separator: ", "))"
            return "text style \(use.origin.name) (\(FamilyStack(use.familyStack).primary ?? "?") \(use.weight.value)"
                + "\(use.style == .normal ? "" : " \(use.style)")): \(made)"
        }
    }

    /// The coverage gaps of the report's faces, answered by `backend` (in process or the daemon).
    static func coverage(
        _ report: AuditReport, languages: [String], samples: [String], backend: (any RegistryBackend)?,
        faces: [FaceRecord]
    ) throws(CLIError) -> [CoverageGap] {
        guard let backend else {
            throw .failed("--lang and --sample need faces to check: pass --fonts DIR or run against the daemon")
        }
        let checker = AuditCoverage(
            faceCoverage: { (name, text) throws(CLIError) in try backend.faceCoverage(postscriptName: name, text: text)
            },
            resolveText: { (text, query) throws(CLIError) in try backend.resolveText(text, query, explain: false) },
            faces: faces)
        return try checker.gaps(in: report, languages: languages, samples: samples)
    }

    /// The registry to audit against: scanned in process for `--fonts`/`--rules`/`--system-fonts`, else the caller's.
    static func openRegistry(
        _ options: AuditOptions, faces: FontIndex?, rules: RuleSet?, embedded: FontRegistry? = nil
    ) throws -> (index: FontIndex, rules: RuleSet, notes: [String]) {
        var index = faces ?? FontIndex(faces: [])
        var ruleSet = rules ?? .empty
        var notes: [String] = []
        if options.inProcess {
            let registry = try embedded ?? EmbeddedRegistry.open(options.parsed)
            index = registry.index
            ruleSet = registry.rules
        } else if faces == nil {
            notes.append("no fonts given: every face counts as missing; pass --fonts DIR or run against the daemon")
        }
        for problem in index.problems {
            notes.append("font file not usable, left out: \(problem.path): \(problem.reason)")
        }
        return (index, ruleSet, notes)
    }

    /// Computes the report, with the rules' aliases and supported weights applied.
    static func audit(
        _ documents: [TypographyDocument], options: AuditOptions,
        registry: (index: FontIndex, rules: RuleSet, notes: [String])
    ) -> AuditReport {
        var notes = registry.notes
        var supported: [String: [Int]] = [:]
        var aliases: [String: String] = [:]
        for use in documents.flatMap(\.uses) {
            guard let family = FamilyStack(use.familyStack).primary else { continue }
            var target = family
            if let alias = registry.rules.alias(family) {
                target = alias.target
                aliases[family] = alias.target
                if alias.deprecated {
                    notes.append(
                        "\(family) is a deprecated alias of \(alias.target); use \(alias.target) in the design system")
                }
            }
            if let weights = registry.rules.rule(for: target)?.supportedWeights { supported[family] = weights }
        }
        var seenNotes = Set<String>()
        notes = notes.filter { seenNotes.insert($0).inserted }
        let auditor = Auditor(
            configuration: .init(boldPolicy: options.boldPolicy, supportedWeights: supported, aliases: aliases))
        let index = registry.index
        var report = auditor.audit(documents, faces: index.faces, suggestions: { index.suggestions(for: $0) })
        report.notes += notes
        return report
    }

    /// Renders the report and writes the HTML page and the wiring that were asked for.
    static func output(
        _ report: AuditReport, documents: [TypographyDocument], options: AuditOptions, index: FontIndex
    ) -> Result {
        var result = Result(
            stdout: render(report, options: options), stderr: "",
            exitCode: exitCode(report), report: report)
        // Said on stderr too when stdout is machine output (JSON, SARIF) that is likely piped into a file.
        if options.outputFormat != .text {
            let warnings =
                report.status == .nothingAudited
                ? [report.nothingAuditedMessage]
                : report.unusedInputs.map { "warning: " + AuditReport.idleInputMessage($0) }
            result.stderr += warnings.map { "fontresolve audit: \($0)\n" }.joined()
        }
        if let reportPath = options.parsed.value("report") {
            let html = AuditHTMLRenderer.render(report, faces: index.faces)
            do {
                try Data(html.utf8).write(to: URL(fileURLWithPath: reportPath), options: .atomic)
                result.stderr += "fontresolve audit: wrote the HTML report to \(reportPath)\n"
            } catch {
                result.stderr +=
                    "fontresolve audit: cannot write the report to \(reportPath) (\(error.localizedDescription)); check that its folder exists and is writable\n"
                result.exitCode = 73
                return result
            }
        }
        if !options.emit.isEmpty || options.copyFonts != nil {
            let wiring = AuditWiring(report: report, faces: index.faces, uses: documents.flatMap(\.uses))
            let locations = EmitLocations(output: options.out ?? ".", copiedFonts: options.copyFonts)
            let files = AuditWiringWriter.files(options.emit, wiring: wiring, locations: locations, ios: options.ios)
            let copies = options.copyFonts == nil ? [] : AuditWiringWriter.fontCopies(wiring)
            do {
                let written = try AuditWiringWriter.write(files, copies: copies, locations: locations)
                let destination = [options.out, options.copyFonts].compactMap { $0 }.joined(separator: " and ")
                result.stderr +=
                    "fontresolve audit: wrote \(written.count) file\(written.count == 1 ? "" : "s") of wiring to \(destination)\n"
            } catch {
                result.stderr += "fontresolve audit: \(error)\n"
                result.exitCode = 73
            }
        }
        return result
    }

    /// 0 complete, 1 a required face or a sample character is missing, 65 (`EX_DATAERR`) no text style found.
    static func exitCode(_ report: AuditReport) -> Int32 {
        switch report.status {
        case .complete: ExitStatus.success.rawValue
        case .incomplete: ExitStatus.failure.rawValue
        case .nothingAudited: ExitStatus.dataError.rawValue
        }
    }

    /// The report in the output format asked for.
    static func render(_ report: AuditReport, options: AuditOptions) -> String {
        switch options.outputFormat {
        case .json: AuditJSONRenderer.render(report)
        case .markdown: AuditMarkdownRenderer.render(report)
        case .sarif: AuditSARIFRenderer.render(report)
        case .github: AuditGitHubRenderer.render(report)
        case .text: AuditTextRenderer.render(report)
        }
    }
}

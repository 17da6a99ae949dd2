import FontRegAudit
import FontRegCore
import Foundation

/// The audit's arguments, parsed and checked: what to read, how to report, what to emit.
struct AuditOptions {
    /// A usage problem: the message, and whether the usage text helps.
    struct UsageProblem: Error {
        /// What is wrong and what to do.
        var message: String
        /// Whether to print the usage lines after it.
        var showUsage: Bool = false
    }

    /// How the report is printed.
    enum OutputFormat {
        /// The table for a terminal.
        case text
        /// `--json`.
        case json
        /// `--markdown`.
        case markdown
        /// `--format sarif`: SARIF 2.1.0.
        case sarif
        /// `--format github`: workflow annotations.
        case github
    }

    /// The arguments as parsed.
    let parsed: ParsedArguments
    /// The input files, folders or globs.
    var inputs: [String] { parsed.positional }
    /// The input format, when given.
    var inputFormat: AuditInputFormat?
    /// How to print the report.
    var outputFormat = OutputFormat.text
    /// The Bold Text policy.
    var boldPolicy = BoldTextPolicy.nextHeavier
    /// The wiring formats to write.
    var emit: [AuditEmitFormat] = []
    /// How `--emit ios` writes its Swift (`--ios-api`, `--ios-prefix`).
    var ios = IOSFontEmitter.Options()
    /// `--out`.
    var out: String? { parsed.value("out") }
    /// `--copy-fonts`.
    var copyFonts: String? { parsed.value("copy-fonts") }
    /// `--lang TAG[,TAG…]` (repeatable): languages every required face is checked against.
    var languages: [String] {
        parsed.values("lang").flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
    }
    /// `--sample TEXT` (repeatable): texts every required face is checked against.
    var samples: [String] { parsed.values("sample").filter { !$0.isEmpty } }
    /// Count deprecated tokens.
    var includeDeprecated: Bool { parsed.has("include-deprecated") }
    /// Whether the faces come from an in-process registry rather than the caller.
    var inProcess: Bool {
        parsed.has("system-fonts") || !parsed.values("fonts").isEmpty || parsed.value("rules") != nil
    }

    /// Parses the arguments after `audit`.
    ///
    /// - Throws: ``UsageProblem`` for anything the user has to change.
    init(arguments: [String]) throws(UsageProblem) {
        do {
            parsed = try AuditCommand.parser.parse(arguments)
        } catch {
            throw UsageProblem(message: "\(error)", showUsage: true)
        }
        guard !parsed.positional.isEmpty else {
            throw UsageProblem(message: "give at least one input file", showUsage: true)
        }
        try readOutputFormat()
        if let name = parsed.value("bold-policy") {
            guard let given = BoldTextPolicy(name: name) else {
                let names = BoldTextPolicy.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageProblem(message: "unknown Bold Text policy \"\(name)\"; use one of: \(names)")
            }
            boldPolicy = given
        }
        for name in parsed.values("emit") {
            guard let format = AuditEmitFormat(name: name) else {
                let names = AuditEmitFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageProblem(message: "unknown --emit format \"\(name)\"; use one of: \(names)")
            }
            if !emit.contains(format) { emit.append(format) }
        }
        if let name = parsed.value("ios-api") {
            guard let api = IOSFontEmitter.API(rawValue: name.lowercased()) else {
                let names = IOSFontEmitter.API.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageProblem(message: "unknown --ios-api \"\(name)\"; use one of: \(names)")
            }
            ios.api = api
        }
        if let prefix = parsed.value("ios-prefix") {
            let legal = prefix.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
            }
            guard legal, !(prefix.first?.isNumber ?? false) else {
                throw UsageProblem(
                    message: "--ios-prefix \"\(prefix)\" cannot start a Swift type name; use letters, digits and _")
            }
            ios.prefix = prefix
        }
        if !emit.isEmpty && out == nil {
            throw UsageProblem(message: "--emit writes files: give the folder with --out DIR")
        }
    }

    /// Reads `--json`, `--markdown` and the `--format` values (input formats and output formats share the option).
    private mutating func readOutputFormat() throws(UsageProblem) {
        var outputs: [OutputFormat] = []
        if parsed.has("json") { outputs.append(.json) }
        if parsed.has("markdown") { outputs.append(.markdown) }
        for name in parsed.values("format") {
            switch name.lowercased() {
            case "sarif": outputs.append(.sarif)
            case "github", "github-actions": outputs.append(.github)
            default:
                guard let given = AuditInputFormat(name: name) else {
                    throw UsageProblem(
                        message: "\(AuditInputError.unknownFormatName(name)); or an output format: sarif, github")
                }
                inputFormat = given
            }
        }
        if outputs.count > 1 {
            throw UsageProblem(
                message: "--json, --markdown, --format sarif and --format github exclude each other; choose one")
        }
        outputFormat = outputs.first ?? .text
    }
}

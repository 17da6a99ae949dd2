import FontRegJSON

/// Renders the report as SARIF 2.1.0: one `error` result per text style and missing face, at the style's line and column.
///
/// Code-scanning tools (GitHub's among them) show each result on the line of the token file
/// that declares the style. File paths are written as given (relative paths stay relative).
package enum AuditSARIFRenderer {
    /// The rule every result refers to.
    static let ruleID = "fontreg/missing-face"

    /// The rule of an input that cannot be read.
    static let inputRuleID = "fontreg/input-error"

    /// The rule of a coverage gap (issue 12): a warning, text still draws with the stand-in.
    static let coverageRuleID = "fontreg/coverage-gap"

    /// The rule of an audit that found no text style, or of an input file that contributes none: a warning.
    static let emptyInputRuleID = "fontreg/no-text-style"

    /// The rule of a family declared as a token that no text style uses: a note.
    static let unusedFamilyRuleID = "fontreg/unused-family"

    /// The SARIF log as pretty JSON with sorted keys.
    package static func render(_ report: AuditReport) -> String {
        log(
            AuditFinding.findings(in: report).map { result($0, rule: ruleID) }
                + AuditFinding.coverageFindings(in: report).map { result($0, rule: coverageRuleID, level: "warning") }
                + AuditFinding.inputWarnings(in: report).map { result($0, rule: emptyInputRuleID, level: "warning") }
                + AuditFinding.unusedFamilyFindings(in: report).map {
                    result($0, rule: unusedFamilyRuleID, level: "note")
                })
    }

    /// The SARIF log of an input that cannot be read: one result at its line.
    package static func render(_ error: AuditInputError) -> String {
        log([result(AuditFinding.finding(for: error), rule: inputRuleID)])
    }

    /// One result.
    static func result(_ finding: AuditFinding, rule: String, level: String = "error") -> JSONValue {
        var region: [String: JSONValue] = [:]
        if let line = finding.line { region["startLine"] = .int(line) }
        if let column = finding.column { region["startColumn"] = .int(column) }
        var physical: [String: JSONValue] = ["artifactLocation": ["uri": .string(finding.file)]]
        if !region.isEmpty { physical["region"] = .object(region) }
        return [
            "ruleId": .string(rule), "level": .string(level), "message": ["text": .string(finding.message)],
            "locations": [["physicalLocation": .object(physical)]],
        ]
    }

    /// The log around the results.
    static func log(_ results: [JSONValue]) -> String {
        let driver: JSONValue = [
            "name": "fontresolve audit",
            "rules": [
                [
                    "id": .string(ruleID),
                    "shortDescription": ["text": "A text style needs a font face that is not registered."],
                    "help": [
                        "text":
                            "Add the font file of that family, weight and style, or change the style's weight to one the family has."
                    ],
                ],
                [
                    "id": .string(coverageRuleID),
                    "shortDescription": [
                        "text":
                            "A required face lacks characters or languages the design system names; another face stands in."
                    ],
                    "help": [
                        "text":
                            "Ship a family covering them in the style's stack, or accept the stand-in named in the message."
                    ],
                ],
                [
                    "id": .string(emptyInputRuleID),
                    "shortDescription": [
                        "text": "No text style found: nothing was audited, or an input file contributes nothing."
                    ],
                    "help": [
                        "text":
                            "Pass the token files or folder that define the typography (DTCG or Tokens Studio typography tokens, a Figma Variables export, YMatterType Swift sources or a native text-style list), or --format F."
                    ],
                ],
                [
                    "id": .string(unusedFamilyRuleID),
                    "shortDescription": ["text": "A family is declared as a token but no text style uses it."],
                    "help": ["text": "Use the family in a text style, or remove the token."],
                ],
                [
                    "id": .string(inputRuleID),
                    "shortDescription": [
                        "text": "A token file cannot be read: malformed, or a reference that does not resolve."
                    ],
                    "help": ["text": "Fix the file at the line shown; the message says what is wrong."],
                ],
            ],
        ]
        let log: JSONValue = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [["tool": ["driver": driver], "results": .array(results)]],
        ]
        return log.prettyPrinted() + "\n"
    }
}

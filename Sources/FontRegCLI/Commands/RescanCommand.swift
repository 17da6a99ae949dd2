import FontRegCore

/// `fontresolve rescan`: makes the daemon re-read every registered directory and file now.
enum RescanCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "rescan", arguments: "",
        summary: "Make the daemon re-read every registered directory and file now.",
        discussion:
            "Unchanged files are not read again. Prints the faces added and removed and the files that could not be used. Shows progress on a terminal. Users the daemon does not allow exit 77.",
        options: [
            CommonOptions.json("rescan"), CommonOptions.verbose("rescan"), CommonOptions.socket("rescan"),
            CommonOptions.help("rescan"),
        ],
        examples: ["sudo fontresolve rescan", "fontresolve rescan --json --socket /tmp/fontregd.sock"])

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        _ = try context.positional(0...0, missing: "")
        let backend = try context.backend()
        let report = try ProgressIndicator(console: context.console).run("Rescanning") { () throws(CLIError) in
            try backend.rescan()
        }
        if context.json {
            context.printJSON(report)
            return .success
        }
        let console = context.console
        console.line(
            "Rescanned: \(report.added.count) face\(report.added.count == 1 ? "" : "s") added, \(report.removed.count) removed (generation \(report.generation))."
        )
        let verbose = context.arguments.has("verbose")
        if !verbose && report.added.count + report.removed.count > FaceChangeList.summaryThreshold {
            for line in FaceChangeList.summary(report.added, sign: "+")
                + FaceChangeList.summary(report.removed, sign: "-")
            {
                console.line(line)
            }
            console.line("  (--verbose lists every face)")
        } else {
            for face in report.added { console.line("  + \(face.postscriptName)  \(PathDisplay.location(of: face))") }
            for face in report.removed { console.line("  - \(face.postscriptName)  \(PathDisplay.location(of: face))") }
        }
        for problem in report.problems {
            console.line(
                "  \(console.styled("skipped:", .yellow)) \(PathDisplay.relative(problem.path)): \(problem.reason)")
        }
        return .success
    }
}

import FontRegCore
import FontRegProtocol
import Foundation

/// `fontresolve status`: counts, paths and problems of the registry (the daemon's, or an embedded one).
package enum StatusCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "status", arguments: "",
        summary: "Show the registry's state: faces, families, generation, paths, unreadable files.",
        discussion:
            "From the daemon: also its version, uptime and open connections, and the socket used. With --fonts: the embedded registry, which shows what a daemon would serve from those directories and which files it would skip.",
        options: [
            CommonOptions.json("status"),
            .init(
                "all",
                help:
                    "List every registered directory and every unreadable file; without it, directories no one registered (the configuration's and fontconfig's) and more than \(StatusCommand.listLimit) problems are counted, not listed.",
                example: "fontresolve status --all"),
        ] + CommonOptions.source("status") + [CommonOptions.help("status")],
        examples: [
            "fontresolve status", "fontresolve status --all", "fontresolve status --fonts fonts --rules fonts/rules",
        ])

    /// How many unregistered directories or problems are listed without `--all`.
    static let listLimit = 10

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        _ = try context.positional(0...0, missing: "")
        var status = try context.backend().status()
        if !context.isEmbedded { status.socket = context.socketPath }
        context.print(status) { render($0, console: context.console, all: context.arguments.has("all")) }
        return .success
    }

    /// The status as labelled lines.
    ///
    /// - Parameter all: whether to list every registered directory and problem; without it,
    ///   the directories nobody registered (configured, fontconfig's) and problems past
    ///   ``listLimit`` are counted in one line that names `--all`.
    package static func render(_ status: RegistryStatus, console: Console, all: Bool = false) -> String {
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append((label + ":").padding(toLength: 13, withPad: " ", startingAt: 0) + value)
        }
        if let socket = status.socket {
            add("daemon", "fontregd \(status.version ?? "") at \(socket)".replacingOccurrences(of: "  ", with: " "))
            if let uptime = status.uptimeSeconds { add("uptime", duration(uptime)) }
            if let connections = status.connections { add("connections", String(connections)) }
        } else {
            add("mode", "embedded (no daemon)")
        }
        add("faces", String(status.faces))
        add("families", String(status.families))
        add("generation", String(status.generation))
        lines += registeredLines(status, all: all)
        lines += platformLines(status)
        if status.problems.isEmpty {
            add("problems", "none")
        } else {
            lines.append(
                "problems:    \(status.problems.count) file\(status.problems.count == 1 ? "" : "s") could not be used"
            )
            let shown = all ? status.problems[...] : status.problems.prefix(listLimit)
            for problem in shown {
                lines.append(
                    "  \(console.styled("skipped:", .yellow)) \(PathDisplay.relative(problem.path)): \(problem.reason)")
            }
            if shown.count < status.problems.count {
                lines.append(
                    "  … and \(status.problems.count - shown.count) more (`fontresolve status --all` lists them)")
            }
        }
        if !status.duplicates.isEmpty {
            let losers = status.duplicates.reduce(0) { $0 + $1.losers.count }
            add(
                "duplicates",
                "\(status.duplicates.count) (\(losers) face\(losers == 1 ? "" : "s") not used; `fontresolve duplicates` says why)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The registered directories: every one a user or administrator registered, with its
    /// owner and scope; the configuration's and fontconfig's counted unless few or `all`.
    static func registeredLines(_ status: RegistryStatus, all: Bool) -> [String] {
        if status.registeredPaths.isEmpty { return ["registered:  nothing"] }
        let records = Dictionary((status.registrations ?? []).map { ($0.path, $0) }) { a, _ in a }
        let recorded = status.registeredPaths.filter { records[$0] != nil }
        let others = status.registeredPaths.filter { records[$0] == nil }
        let listOthers = all || others.count <= listLimit
        var lines = ["registered:"]
        for path in listOthers ? status.registeredPaths : recorded {
            lines.append("  \(PathDisplay.relative(path))" + (records[path].map(describe) ?? ""))
        }
        if !listOthers {
            lines.append(
                "  \(others.count) director\(others.count == 1 ? "y" : "ies") from the configuration and fontconfig"
                    + " (`fontresolve status --all` lists them)")
        }
        return lines
    }

    /// "  (uid 1000, persistent, own fonts)" after a registered path (issue 15).
    static func describe(_ record: RegistrationSummary) -> String {
        "  (uid \(record.owner), \(record.scope)\(record.private ? ", own fonts" : ""))"
    }

    /// What is disabled and the Bold Text setting, in daemon mode (issue 15).
    static func platformLines(_ status: RegistryStatus) -> [String] {
        var lines: [String] = []
        if let disabled = status.disabled, !disabled.isEmpty {
            lines.append("disabled:")
            for entry in disabled {
                lines.append(
                    "  \(entry.kind) \(entry.value)  (uid \(entry.owner)\(entry.systemWide ? ", for everyone" : ", own fonts"))"
                )
            }
        }
        if let bold = status.boldText { lines.append("bold text:   " + (bold ? "on" : "off")) }
        return lines
    }

    /// "3 h 2 min", "12 s".
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds)
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min \(total % 60) s" }
        return "\(total / 3600) h \(total % 3600 / 60) min"
    }
}

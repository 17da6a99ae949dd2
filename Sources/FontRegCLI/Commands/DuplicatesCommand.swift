import FontRegCore
import FontRegProtocol

/// `fontresolve duplicates`: faces claimed by more than one file, the one used and why the others lost.
enum DuplicatesCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "duplicates", arguments: "",
        summary: "Show faces registered from more than one file, which one is used and why.",
        discussion: """
            Two files with the same PostScript name, or the same family, width, style and weight \
            (a user copy and a system copy, two versions, a variable font beside its statics), are \
            decided by one rule: the higher head.fontRevision wins; on a tie a static face wins over \
            a variable font's named instance; then the face from the earlier font directory in the \
            configuration; then the earlier path. Faces of one file never compete.
            """,
        options: [CommonOptions.json("duplicates")] + CommonOptions.source("duplicates") + [
            CommonOptions.help("duplicates")
        ],
        examples: ["fontresolve duplicates", "fontresolve duplicates --fonts ~/.fonts --fonts /usr/share/fonts"])

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        _ = try context.positional(0...0, missing: "")
        let duplicates = try context.backend().status().duplicates
        context.print(duplicates) { render($0, console: context.console) }
        return .success
    }

    /// Each group: what is shared, the face used, and each face not used with the reason.
    package static func render(_ duplicates: [DuplicateSummary], console: Console) -> String {
        guard !duplicates.isEmpty else { return "No duplicates: every face comes from one file." }
        var lines: [String] = []
        for group in duplicates {
            let what = group.kind == DuplicateGroup.Kind.postscriptName.rawValue ? "PostScript name" : "style"
            lines.append("\(console.styled(group.key, .bold)) (same \(what))")
            lines.append("  \(console.styled("uses:", .green))  \(describe(group.winner))")
            for loser in group.losers {
                lines.append("  \(console.styled("not:", .yellow))   \(describe(loser)): \(loser.explanation ?? "")")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `Name from path#index, revision 1.000`.
    static func describe(_ member: DuplicateSummary.Member) -> String {
        let index = member.instance.map { " instance \($0)" } ?? (member.index > 0 ? " #\(member.index)" : "")
        return
            "\(member.postscriptName) from \(PathDisplay.relative(member.file))\(index), revision \(DuplicateGroup.Reason.revision(member.fontRevision))"
    }
}

import FontRegCore
import FontRegProtocol

/// `fontresolve list [FAMILY]`: the registered families, or the faces of one family.
enum ListCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "list", arguments: "[FAMILY]",
        summary: "List the registered families, or the faces of one family.",
        discussion: """
            Without FAMILY: one row per family with its face count, weights, whether it has \
            italics, and its file count. With FAMILY (any spelling: "Noto Sans", "noto-sans"): one \
            row per face, lightest first, uprights before italics. An unknown FAMILY exits 1 and \
            names the closest registered families.
            """,
        options: [
            .init(
                "names", help: "Print only the family names (or the PostScript names of FAMILY's faces), one a line.",
                example: "fontresolve list --names"),
            .init(
                "face-names",
                help: "Print the PostScript name of every registered face, one a line (shell completion uses it).",
                example: "fontresolve list --face-names --fonts fonts"),
            CommonOptions.json("list Lato"),
        ] + CommonOptions.source("list Lato") + [CommonOptions.noSnapshot("list Lato"), CommonOptions.help("list")],
        examples: [
            "fontresolve list",
            "fontresolve list Lato --fonts fonts",
            "fontresolve list --json | jq '.[].name'",
        ],
        argumentCompletion: .family)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let positional = try context.positional(0...1, missing: "")
        let backend = try context.backend()
        if context.arguments.has("face-names") {
            for face in try backend.faces(family: positional.first) { context.console.line(face.postscriptName) }
            return .success
        }
        if let family = positional.first {
            let faces = try backend.faces(family: family)
            if context.json {
                context.printJSON(faces)
            } else if context.arguments.has("names") {
                for face in faces { context.console.line(face.postscriptName) }
            } else {
                for line in facesTable(faces).render(header: { context.console.styled($0, .bold) }) {
                    context.console.line(line)
                }
                // Issue 15: what the daemon keeps registered but does not resolve to.
                if let daemon = backend as? DaemonBackend, let disabled = try? daemon.disabledFaces(family: family),
                    !disabled.isEmpty
                {
                    context.console.line(
                        "disabled (not resolved; fontresolve enable NAME): "
                            + disabled.map(\.postscriptName).joined(separator: ", "))
                }
            }
        } else {
            let families = try backend.families()
            if context.json {
                context.printJSON(families)
            } else if context.arguments.has("names") {
                for family in families { context.console.line(family.name) }
            } else if families.isEmpty {
                context.console.line("No fonts are registered.")
            } else {
                for line in familiesTable(families).render(header: { context.console.styled($0, .bold) }) {
                    context.console.line(line)
                }
            }
        }
        return .success
    }

    /// One row per family.
    static func familiesTable(_ families: [FamilySummary]) -> Table {
        var table = Table(headers: ["FAMILY", "FACES", "WEIGHTS", "ITALIC", "FILES"], rightAligned: [1, 4])
        for family in families {
            table.append([
                family.name, String(family.faceCount), family.weights.map(String.init).joined(separator: " "),
                family.hasItalic ? "yes" : "no", String(family.files.count),
            ])
        }
        return table
    }

    /// One row per face.
    static func facesTable(_ faces: [FaceRecord]) -> Table {
        var table = Table(
            headers: ["POSTSCRIPT NAME", "WEIGHT", "STYLE", "WIDTH", "FORMAT", "FILE"], rightAligned: [1, 3])
        for face in faces {
            var weight = String(face.weight)
            let range = face.weightRange
            if range.count > 1 { weight = "\(range.lowerBound)-\(range.upperBound)" }
            table.append([
                face.postscriptName, weight, face.style.rawValue, String(face.width), face.format,
                PathDisplay.location(of: face),
            ])
        }
        return table
    }
}

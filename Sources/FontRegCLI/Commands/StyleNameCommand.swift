import FontRegCore

/// `fontresolve style-name FAMILY WEIGHT [--italic]`: the style string a design tool shows for a face.
///
/// Design tools name a face by its style ("Semibold", "DemiBold", "Semi Bold"), the string in
/// the font's typographic subfamily (name ID 17, else 2; for a named instance of a variable font,
/// the instance's name). This prints that string for the registered face of exactly that weight,
/// so a token file can write what Figma shows instead of guessing it.
enum StyleNameCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "style-name", arguments: "FAMILY WEIGHT",
        summary: "Print the style name a design tool shows for a family's face of a weight.",
        discussion: """
            Looks up the registered face of FAMILY with exactly WEIGHT (100–1000 or a name such as \
            semibold; --italic for the italic face) and prints its style name as the font names it \
            (name ID 17, else 2; a variable font's named instance by its instance name). Exit 1 \
            when the family has no face of that weight, listing the weights it has.
            """,
        options: [
            .init("italic", help: "The italic face.", example: "fontresolve style-name Lato 600 --italic"),
            CommonOptions.json("style-name Lato 600"),
        ] + CommonOptions.source("style-name Lato 600") + [CommonOptions.help("style-name")],
        examples: ["fontresolve style-name Lato 600 --fonts fonts", "fontresolve style-name Inter semibold --italic"],
        argumentCompletion: .family)

    /// The answer, as `--json` prints it.
    struct Answer: Encodable {
        var family: String
        var weight: Int
        var italic: Bool
        var styleName: String
        var postscriptName: String
    }

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let values = try context.positional(2...2, missing: "needs FAMILY and WEIGHT, e.g. Lato 600")
        guard let weight = FontWeight(parsing: values[1]) else {
            throw context.spec.usageError("\"\(values[1])\" is not a weight; give 1–1000 or a name such as semibold")
        }
        let italic = context.arguments.has("italic")
        let faces = try context.backend().faces(family: values[0]).filter { $0.italic == italic }
        guard let face = StyleNames.face(weight: weight.value, in: faces) else {
            let have = Array(Set(faces.map(\.weight))).sorted().map(String.init).joined(separator: ", ")
            throw .notFound(
                "\(values[0]) has no \(italic ? "italic" : "upright") face of weight \(weight.value)"
                    + (have.isEmpty ? "; is the family registered?" : "; its weights: \(have)"))
        }
        let answer = Answer(
            family: face.family, weight: face.weight, italic: italic, styleName: face.subfamily,
            postscriptName: face.postscriptName)
        context.print(answer) { $0.styleName }
        return .success
    }
}

/// `fontresolve weight-of FAMILY STYLE`: the weight of the face a design tool calls STYLE.
enum WeightOfCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "weight-of", arguments: "FAMILY STYLE",
        summary: "Print the weight of the face a design tool names STYLE.",
        discussion: """
            The reverse of style-name: finds the registered face of FAMILY whose style name (name \
            ID 17, else 2, or a named instance's name) is STYLE, compared without regard to case, \
            spaces and hyphens ("Semi Bold" finds "SemiBold"), and prints its weight, with "italic" \
            for an italic face. Exit 1 when no face has that style name, listing those it has.
            """,
        options: [CommonOptions.json("weight-of Lato Semibold")] + CommonOptions.source("weight-of Lato Semibold") + [
            CommonOptions.help("weight-of")
        ],
        examples: [
            "fontresolve weight-of Lato \"Semibold Italic\" --fonts fonts", "fontresolve weight-of Inter \"Semi Bold\"",
        ],
        argumentCompletion: .family)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let values = try context.positional(2...2, missing: "needs FAMILY and STYLE, e.g. Lato Semibold")
        let faces = try context.backend().faces(family: values[0])
        let wanted = FontWeight.normalizedName(values[1])
        guard let face = faces.first(where: { FontWeight.normalizedName($0.subfamily) == wanted }) else {
            let names = StyleNames.names(faces).joined(separator: ", ")
            throw .notFound(
                "\(values[0]) has no face named \"\(values[1])\""
                    + (names.isEmpty ? "; is the family registered?" : "; its style names: \(names)"))
        }
        let answer = StyleNameCommand.Answer(
            family: face.family, weight: face.weight, italic: face.italic, styleName: face.subfamily,
            postscriptName: face.postscriptName)
        context.print(answer) { "\($0.weight)\($0.italic ? " italic" : "")" }
        return .success
    }
}

/// Looking faces up by weight and by style name.
enum StyleNames {
    /// The face of exactly `weight`: a static face, else a named instance (never a variable default face at another weight).
    static func face(weight: Int, in faces: [FaceRecord]) -> FaceRecord? {
        let sorted = faces.sorted {
            ($0.width != 5 ? 1 : 0, $0.file, $0.freetypeIndex) < ($1.width != 5 ? 1 : 0, $1.file, $1.freetypeIndex)
        }
        return sorted.first { $0.weight == weight && $0.axes.isEmpty }
            ?? sorted.first { $0.weight == weight && $0.instance != nil }
            ?? sorted.first { $0.weight == weight }
    }

    /// The family's style names, by weight, without repeats.
    static func names(_ faces: [FaceRecord]) -> [String] {
        var seen = Set<String>()
        return faces.sorted { ($0.weight, $0.italic ? 1 : 0) < ($1.weight, $1.italic ? 1 : 0) }.map(\.subfamily)
            .filter { seen.insert($0).inserted }
    }
}

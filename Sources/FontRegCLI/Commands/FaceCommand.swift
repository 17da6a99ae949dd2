import FontRegCore
import Foundation

/// `fontresolve face POSTSCRIPT-NAME`: one face and everything the registry knows about it.
enum FaceCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "face", arguments: "POSTSCRIPT-NAME",
        summary: "Show one face by its PostScript name (case-insensitive).",
        discussion:
            "Prints the face record: family and subfamily, full name, weight, style, width, file and face index, format, size, colour glyphs and variation axes. An unknown name exits 1 and names the closest faces.",
        options: [
            .init(
                "covers", value: "TEXT",
                help: "Say which characters of TEXT the face does not map, and the languages it covers.",
                example: "fontresolve face Lato-Regular --covers \"Hello 世界\""),
            CommonOptions.json("face Inter-Bold"),
        ] + CommonOptions.source("face Inter-Bold") + [
            CommonOptions.noSnapshot("face Inter-Bold"),
            CommonOptions.help("face"),
        ],
        examples: [
            "fontresolve face Inter-SemiBold --fonts fonts", "fontresolve face lato-heavy --json --fonts fonts",
        ],
        argumentCompletion: .face)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let name = try context.positional(1...1, missing: "needs a POSTSCRIPT-NAME, e.g. Inter-Bold")[0]
        if let text = context.arguments.value("covers") {
            return try FaceCoverageCommand.run(context, postscriptName: name, text: text)
        }
        let face = try context.backend().face(postscriptName: name)
        context.print(face) { render($0, console: context.console) }
        return .success
    }

    /// The face as labelled lines.
    package static func render(_ face: FaceRecord, console: Console) -> String {
        var lines = [console.styled(face.postscriptName, .bold)]
        func add(_ label: String, _ value: String) {
            lines.append("  " + (label + ":").padding(toLength: 12, withPad: " ", startingAt: 0) + value)
        }
        add("family", face.family)
        add("subfamily", face.subfamily)
        add("full name", face.fullName)
        add("weight", String(face.weight))
        add("style", face.style.rawValue)
        add("width", String(face.width))
        add("file", PathDisplay.location(of: face))
        add("format", face.format)
        add("size", "\(face.fileSize) bytes")
        add("colour", face.isColor ? "yes" : "no")
        for axis in face.axes {
            add(
                "axis",
                "\(axis.tag) \(number(axis.minimum))-\(number(axis.maximum)), default \(number(axis.defaultValue))")
        }
        return lines.joined(separator: "\n")
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

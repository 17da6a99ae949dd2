import FontRegCore
import FontRegProtocol
import Foundation
import Varlink

/// `fontresolve open POSTSCRIPT-NAME`: the face's file through a descriptor the daemon passes (issue 15).
enum OpenCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "open", arguments: "POSTSCRIPT-NAME",
        summary: "Read a face's file through a descriptor the daemon opens for you.",
        discussion:
            "Asks the daemon (OpenFace) to open the face's file and pass the open descriptor over the socket, as a sandboxed app with no view of the file system would, then prints what it reads: size, SHA-256 and face index, or copies it to --output. The daemon opens only a file you could open yourself. Needs the daemon; unknown names exit 1, refusals 77.",
        options: [
            .init(
                "output", value: "FILE", help: "Copy the file's bytes to FILE instead of printing a digest.",
                example: "fontresolve open Inter-Bold --output /tmp/Inter-Bold.otf", completion: .file),
            CommonOptions.json("open Inter-Bold"), CommonOptions.socket("open Inter-Bold"), CommonOptions.help("open"),
        ],
        examples: ["fontresolve open Inter-Bold", "fontresolve open Lato-Regular --output lato.ttf"],
        argumentCompletion: .face)

    /// What `--json` prints.
    struct Summary: Encodable {
        let postscriptName: String
        let faceIndex: Int
        let size: Int
        let sha256: String?
        let output: String?
    }

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let name = try context.positional(1...1, missing: "needs a POSTSCRIPT-NAME, e.g. Inter-Bold")[0]
        guard !context.isEmbedded, let daemon = try context.backend() as? DaemonBackend else {
            throw CLIError.usage(
                "open reads a face through the daemon's socket; drop --fonts/--system-fonts",
                usage: "fontresolve open POSTSCRIPT-NAME [--output FILE] [--socket PATH]")
        }
        let opened = try daemon.translating { (client) throws(VarlinkClientError) in
            try client.openFace(postscriptName: name)
        }
        let bytes: Data
        do {
            bytes = try opened.file.readToEnd() ?? Data()
        } catch {
            throw CLIError.failed("cannot read the descriptor the daemon passed: \(error)")
        }
        let output = context.arguments.value("output")
        if let output {
            do {
                try bytes.write(to: URL(fileURLWithPath: output))
            } catch {
                throw CLIError.failed("cannot write \(output): \(error.localizedDescription)")
            }
        }
        let digest = output == nil ? SHA256.hex([UInt8](bytes)) : nil
        let summary = Summary(
            postscriptName: opened.face.postscriptName, faceIndex: opened.faceIndex, size: bytes.count,
            sha256: digest, output: output)
        context.print(summary) { summary in
            var line = "\(summary.postscriptName): \(summary.size) bytes, face index \(summary.faceIndex)"
            if let digest = summary.sha256 { line += ", sha256 \(digest)" }
            if let output = summary.output { line += ", copied to \(output)" }
            return line
        }
        return .success
    }
}

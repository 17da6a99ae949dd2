/// The words of `fontresolve --help` and `fontresolve help COMMAND`, built from the command descriptions.
enum HelpText {
    /// The top-level help.
    static var overview: String {
        var lines = [
            "fontresolve: ask the fontreg font registry which face serves a family at a weight and style.",
            "",
            "usage: fontresolve COMMAND [ARGUMENTS] [OPTIONS]",
            "",
            "Commands:",
        ]
        let width = CommandCatalog.specs.map(\.name.count).max() ?? 0
        for spec in CommandCatalog.specs {
            lines.append("  " + spec.name.padded(to: width + 2) + spec.summary)
        }
        lines += [""] + sections.flatMap { [$0.title + ":"] + wrap($0.body, indent: 2) + [""] }
        lines.append("Run `fontresolve help COMMAND` for a command's options, each with an example.")
        lines.append("`fontresolve --version` prints the version.")
        return joinedLines(lines)
    }

    /// `lines` joined by newlines: `joined(separator: "\n")` without the standard library's
    /// generic version, whose first use instantiated its types at run time (0.29 M of the
    /// 3.1 M instructions of `fontresolve --help`, issue 29 item 1).
    static func joinedLines(_ lines: [String]) -> String {
        var text = ""
        text.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for (index, line) in lines.enumerated() {
            if index > 0 { text += "\n" }
            text += line
        }
        return text
    }

    /// The parts of the overview after the command list; the man page has them too.
    package static let sections: [(title: String, body: String)] = [
        (
            "Where the registry is",
            """
            With --fonts DIR (repeatable) every read command runs in process, with no daemon \
            (embedded mode). Otherwise fontresolve talks to fontregd over its Unix socket: the path \
            given with --socket, else $\(SocketLocator.environmentVariable), else \(SocketLocator.systemSocket) \
            when it exists, else $XDG_RUNTIME_DIR/fontreg/fontregd.sock.
            """
        ),
        (
            "Output",
            """
            Aligned tables and labelled lines for people; --json prints JSON with sorted keys, one \
            object or one array, and nothing else on standard output (watch --json prints one \
            object per line). Colour only on a terminal, never when NO_COLOR is set. register and \
            rescan show a spinner on a terminal while the daemon works. Messages and notes go to \
            standard error.
            """
        ),
        (
            "Exit status",
            """
            0 success; 1 not found (family, face, path), a refused change, or an incomplete audit; \
            2 an audit input cannot be read; 64 bad usage (the usage line is printed); 65 audit \
            found no text style in its inputs, so nothing was audited; 69 the daemon cannot be \
            reached; 73 the audit's report or wiring cannot be written; 74 standard output cannot \
            be written (a full disk; not a reader gone away); 77 permission denied by the daemon \
            or its socket.
            """
        ),
    ]

    /// The help of one command: usage, summary, details, every option with an example, examples.
    package static func command(_ spec: CommandSpec) -> String {
        var lines = [spec.usage, "", spec.summary, ""]
        lines += wrap(spec.discussion, indent: 0)
        lines += ["", "Options:"]
        let width = min(24, spec.options.map(\.synopsis.count).max() ?? 0)
        for option in spec.options {
            let head = "  " + option.synopsis.padded(to: width + 2)
            let body = wrap(option.help + (option.repeatable ? " Repeatable." : ""), indent: 0, width: 76 - head.count)
            if option.synopsis.count > width {
                lines.append("  " + option.synopsis)
                lines += body.map { String(repeating: " ", count: head.count) + $0 }
            } else {
                lines.append(head + (body.first ?? ""))
                lines += body.dropFirst().map { String(repeating: " ", count: head.count) + $0 }
            }
            lines.append(String(repeating: " ", count: head.count) + "e.g. " + option.example)
        }
        lines += ["", "Examples:"] + spec.examples.map { "  " + $0 }
        return joinedLines(lines)
    }

    /// Wraps a paragraph at `width` columns, each line indented.
    ///
    /// An ASCII paragraph (every help text today) is wrapped on its bytes, where a byte is a
    /// character: the same lines as the `Character` walk, which cost `fontresolve --help` 1.1 M
    /// instructions of grapheme breaking for the overview alone (issue 29 item 1).
    static func wrap(_ text: String, indent: Int, width: Int = 78) -> [String] {
        var text = text
        if let lines = text.withUTF8({ wrapASCII($0, indent: indent, width: width) }) { return lines }
        return wrapCharacters(text, indent: indent, width: width)
    }

    /// ``wrap(_:indent:width:)`` walking `Character`s: any text.
    static func wrapCharacters(_ text: String, indent: Int, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !current.isEmpty && current.count + 1 + word.count > width - indent {
                lines.append(String(repeating: " ", count: indent) + current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(String(repeating: " ", count: indent) + current) }
        return lines
    }

    /// ``wrap(_:indent:width:)`` of ASCII bytes; `nil` when a byte is not ASCII.
    static func wrapASCII(_ bytes: UnsafeBufferPointer<UInt8>, indent: Int, width: Int) -> [String]? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let space = UInt8(ascii: " ")
        let margin = [UInt8](repeating: space, count: indent)
        var lines: [String] = []
        var current: [UInt8] = []
        var start = 0
        while start < bytes.count {
            guard bytes[start] != space else {
                start += 1
                continue
            }
            var end = start
            while end < bytes.count, bytes[end] != space { end += 1 }
            if !current.isEmpty && current.count + 1 + (end - start) > width - indent {
                lines.append(String(decoding: margin + current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
            if !current.isEmpty { current.append(space) }
            current += UnsafeBufferPointer(rebasing: bytes[start..<end])
            start = end
        }
        if !current.isEmpty { lines.append(String(decoding: margin + current, as: UTF8.self)) }
        return lines
    }
}

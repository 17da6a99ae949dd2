import FontRegTestSupport
import Foundation
import Testing

/// One `$ command` of the docs with the output shown under it.
struct DocExample: CustomStringConvertible, Sendable {
    /// The document, relative to the package root.
    var file: String
    /// The 1-based line of the `$` line.
    var line: Int
    /// The shell command after `$ `.
    var command: String
    /// The lines shown under it (`...` elisions included), without the `(exit N)` marker.
    var expected: [String]
    /// The exit status shown with `(exit N)` at the end of the output, else 0.
    var status: Int32

    var description: String { "\(file):\(line): $ \(command)" }
}

/// Reads the examples of a Markdown document.
///
/// An example is a line starting with `$ ` inside a fenced or an indented code block; the lines
/// after it, up to the next `$ ` line or the end of the block, are its output. A block whose
/// previous non-blank line is an HTML comment starting `<!-- illustrative` is not run. In the
/// output, a line `...` stands for any number of lines, `...` inside a line for any text, and
/// `(exit N)` at the end of the last line for the exit status.
enum DocExampleReader {
    static func examples(file: String, text: String) -> [DocExample] {
        var examples: [DocExample] = []
        var current: DocExample?
        var inFence = false
        var inIndented = false
        var illustrative = false
        var previousNonBlank = ""
        func finish() {
            guard var example = current else { return }
            while example.expected.last?.isEmpty == true { example.expected.removeLast() }
            if let last = example.expected.last,
                let range = last.range(of: #"\s*\(exit (\d+)\)$"#, options: .regularExpression)
            {
                let digits = last[range].filter(\.isNumber)
                example.status = Int32(digits) ?? 0
                example.expected[example.expected.count - 1] = String(last[..<range.lowerBound])
            }
            if !illustrative { examples.append(example) }
            current = nil
        }
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .enumerated()
        {
            var content: String?
            if line.hasPrefix("```") {
                if inFence {
                    finish()
                    inFence = false
                } else {
                    inFence = true
                    illustrative = previousNonBlank.hasPrefix("<!-- illustrative")
                }
                previousNonBlank = line
                continue
            }
            if inFence {
                content = line
            } else if line.hasPrefix("    ") {
                if !inIndented {
                    inIndented = true
                    illustrative = previousNonBlank.hasPrefix("<!-- illustrative")
                }
                content = String(line.dropFirst(4))
            } else if line.trimmingCharacters(in: .whitespaces).isEmpty && inIndented {
                content = ""
            } else {
                if inIndented {
                    finish()
                    inIndented = false
                }
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { previousNonBlank = line }
            guard let content else { continue }
            if content.hasPrefix("$ ") {
                finish()
                current = DocExample(
                    file: file, line: offset + 1, command: String(content.dropFirst(2)), expected: [], status: 0)
            } else if current != nil {
                current?.expected.append(content)
            }
        }
        finish()
        return examples
    }

    /// Whether the actual lines match the shown ones, with `...` elisions.
    static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        let rest = expected.dropFirst()
        if first.trimmingCharacters(in: .whitespaces) == "..." {
            for skip in 0...actual.count where matches(rest, actual.dropFirst(skip)) { return true }
            return false
        }
        guard let line = actual.first else { return false }
        return fits(line.trimmingTrailingSpaces, first.trimmingTrailingSpaces) && matches(rest, actual.dropFirst())
    }

    /// Whether one printed line fits a shown one, where each `...` stands for any text.
    static func fits(_ line: String, _ shown: String) -> Bool {
        let parts = shown.components(separatedBy: "...")
        guard parts.count > 1 else { return line == shown }
        guard line.hasPrefix(parts[0]), line.hasSuffix(parts[parts.count - 1]),
            line.count >= parts[0].count + parts[parts.count - 1].count
        else { return false }
        var rest = line.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}

/// The commands the README and docs/*.md show with their output, run as written.
@Suite("docs run as written")
struct DocExamplesTests {
    static let documents: [String] = {
        let docs =
            (try? FileManager.default.contentsOfDirectory(
                atPath: BuildProducts.packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    static let examples: [DocExample] = documents.flatMap { file in
        let text =
            (try? String(contentsOf: BuildProducts.packageRoot.appendingPathComponent(file), encoding: .utf8)) ?? ""
        return DocExampleReader.examples(file: file, text: text)
    }

    @Test func theReadmeAndTheClientGuideHaveExamples() {
        #expect(Self.examples.contains { $0.file == "README.md" })
        #expect(Self.examples.contains { $0.file == "docs/client.md" })
    }

    @Test(arguments: examples)
    func exampleRunsAndPrintsWhatTheDocShows(_ example: DocExample) throws {
        let environment = [
            "PATH": BuildProducts.directory.path + ":/usr/local/bin:/usr/bin:/bin", "NO_COLOR": "1",
            "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8",
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", example.command]
        process.environment = environment
        process.currentDirectoryURL = BuildProducts.packageRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var actual = (stdout + stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while actual.last?.isEmpty == true { actual.removeLast() }
        #expect(process.terminationStatus == example.status, "\(example)\n\(stderr)")
        #expect(
            DocExampleReader.matches(example.expected[...], actual[...]),
            "\(example)\nshown:\n\(example.expected.joined(separator: "\n"))\nprinted:\n\(actual.joined(separator: "\n"))"
        )
    }

    @Test func theReaderHonoursElisionsExitMarkersAndIllustrativeBlocks() {
        let text = """
            ```
            $ a
            one
            ...
            four   (exit 1)
            ```

            <!-- illustrative: not run -->
                $ b
                x
            """
        let examples = DocExampleReader.examples(file: "t.md", text: text)
        #expect(examples.count == 1)
        #expect(examples.first?.status == 1)
        #expect(examples.first?.expected == ["one", "...", "four"])
        #expect(DocExampleReader.matches(["one", "...", "four"], ["one", "two", "three", "four"]))
        #expect(DocExampleReader.matches(["error: No ..."], ["error: No family"]))
        #expect(DocExampleReader.matches(["...  [FALLBACK]"], ["Noto-Regular  [FALLBACK]"]))
        #expect(DocExampleReader.matches(["a ... c ... e"], ["a b c d e"]))
        #expect(!DocExampleReader.matches(["a ... c"], ["a b d"]))
        #expect(!DocExampleReader.matches(["one", "four"], ["one", "two", "four"]))
    }
}

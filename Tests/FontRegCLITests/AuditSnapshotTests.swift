import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCLI

/// Whole outputs compared with recorded files in `Fixtures/tokens/snapshots/`.
///
/// Re-record deliberately with `RECORD_SNAPSHOTS=1 swift test --filter AuditSnapshotTests`
/// and review the diff: a changed snapshot is a changed user-visible output.
@Suite struct AuditSnapshotTests {
    static let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil

    /// The output with the checkout's location removed, so snapshots match on any machine.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: AuditFixtures.repositoryRoot.path + "/", with: "")
    }

    static func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let path = AuditFixtures.tokens("snapshots/\(name)")
        let actual = normalized(text)
        if recording {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            actual == expected,
            "output differs from \(name); re-record with RECORD_SNAPSHOTS=1 if the change is intended",
            sourceLocation: sourceLocation)
    }

    static let inputs = [
        AuditFixtures.tokens("native/text-styles.json"), AuditFixtures.tokens("dtcg/design-system.tokens.json"),
    ]

    @Test(arguments: [("--json", "audit.json"), ("--markdown", "audit.md"), ("", "audit.txt")])
    func outputMatchesTheRecordedSnapshot(flag: String, snapshot: String) throws {
        let result = AuditCommand.run(
            arguments: Self.inputs + (flag.isEmpty ? [] : [flag]), faces: AuditFixtures.fixtureIndex)
        #expect(result.exitCode == 1)
        try Self.assertSnapshot(result.stdout, named: snapshot)
    }
}
